#include "opweave/output_rules.h"

#include <ATen/ExpandUtils.h>
#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/ops/result_type_native.h>

#include <algorithm>
#include <cmath>

#include "aten/internal.h"

namespace opweave {
namespace rules {
namespace {

OutMeta make(at::IntArrayRef sizes, at::ScalarType dtype) {
  return OutMeta{c10::SmallVector<int64_t, 6>(sizes.begin(), sizes.end()), dtype};
}

// The binary ops' common case, operands of one dtype and one shape, without ATen's general
// routines: result_type walks its IListRef machinery (~500 instructions) to find that promoting
// a dtype with itself gives itself, whatever the operands' dimensions or wrapped-number flags.
at::ScalarType common_dtype(const at::Tensor& a, const at::Tensor& b) {
  return a.scalar_type() == b.scalar_type() ? a.scalar_type() : at::native::result_type(a, b);
}

// c10's promotion table read directly: at::promote_types is a dispatched operator (a
// dispatcher entry and a profiler record per call, 124 of them in a tiny GPT's training step).
at::ScalarType promote(at::ScalarType a, at::ScalarType b) {
  const at::ScalarType r = c10::promoteTypes(a, b);
  TORCH_CHECK(r != at::ScalarType::Undefined, "Promotion from ", a, " and ", b, " is unsupported.");
  return r;
}

OutMeta broadcast_sizes(at::IntArrayRef a, at::IntArrayRef b, at::ScalarType dtype) {
  if (same_sizes(a, b)) return make(a, dtype);
  return make(at::infer_size_dimvector(a, b), dtype);
}

}  // namespace

OutMeta like(const at::Tensor& a) { return make(a.sizes(), a.scalar_type()); }

OutMeta broadcast(const at::Tensor& a, const at::Tensor& b) {
  return broadcast_sizes(a.sizes(), b.sizes(), common_dtype(a, b));
}

OutMeta broadcast(const at::Tensor& a, const at::Scalar& b) {
  return make(a.sizes(), at::native::result_type(a, b));
}

OutMeta broadcast(const at::Scalar& a, const at::Tensor& b) {
  return make(b.sizes(), at::native::result_type(a, b));
}

OutMeta broadcast(const at::Tensor& a, const at::Tensor& b, const at::Tensor& c) {
  auto ab = at::infer_size_dimvector(a.sizes(), b.sizes());
  auto dtype = promote(common_dtype(a, b), common_dtype(b, c));
  return broadcast_sizes(ab, c.sizes(), dtype);
}

OutMeta broadcast(const at::Tensor& a, const c10::optional<at::Tensor>& b,
                  const c10::optional<at::Tensor>& c) {
  const bool has_b = b.has_value() && b->defined(), has_c = c.has_value() && c->defined();
  if (has_b && has_c) return broadcast(a, *b, *c);
  if (has_b) return broadcast(a, *b);
  if (has_c) return broadcast(a, *c);
  return like(a);
}

namespace {
// True division's result: integral and bool operands give the default float dtype.
OutMeta to_float(OutMeta m) {
  if (at::isIntegralType(m.dtype, /*includeBool=*/true)) {
    m.dtype = c10::typeMetaToScalarType(c10::get_default_dtype());
  }
  return m;
}
}  // namespace

OutMeta division(const at::Tensor& a, const at::Tensor& b,
                 c10::optional<c10::string_view> rounding_mode) {
  return rounding_mode.has_value() ? broadcast(a, b) : to_float(broadcast(a, b));
}

OutMeta division(const at::Tensor& a, const at::Scalar& b,
                 c10::optional<c10::string_view> rounding_mode) {
  return rounding_mode.has_value() ? broadcast(a, b) : to_float(broadcast(a, b));
}

OutMeta division(const at::Tensor& a, const at::Tensor& b) { return to_float(broadcast(a, b)); }

OutMeta division(const at::Tensor& a, const at::Scalar& b) { return to_float(broadcast(a, b)); }

OutMeta compare(const at::Tensor& a, const at::Tensor& b) {
  return broadcast_sizes(a.sizes(), b.sizes(), at::kBool);
}

OutMeta compare(const at::Tensor& a, const at::Scalar&) { return make(a.sizes(), at::kBool); }

OutMeta select(const at::Tensor& condition, const at::Tensor& a, const at::Tensor& b) {
  auto ab = at::infer_size_dimvector(a.sizes(), b.sizes());
  return broadcast_sizes(condition.sizes(), ab, common_dtype(a, b));
}

OutMeta reduce(const at::Tensor& a, at::OptionalIntArrayRef dim, bool keepdim,
               c10::optional<at::ScalarType> dtype) {
  const int64_t ndim = a.dim();
  std::bitset<at::dim_bitset_size> mask;
  if (!dim.has_value() || dim->empty()) {
    mask.set();
  } else {
    mask = at::dim_list_to_bitset(*dim, ndim);
  }
  c10::SmallVector<int64_t, 6> sizes;
  for (int64_t d = 0; d < ndim; ++d) {
    if (!mask[d]) {
      sizes.push_back(a.size(d));
    } else if (keepdim) {
      sizes.push_back(1);
    }
  }
  at::ScalarType out_dtype = a.scalar_type();
  if (dtype.has_value()) {
    out_dtype = *dtype;
  } else if (at::isIntegralType(out_dtype, /*includeBool=*/true)) {
    out_dtype = at::kLong;  // sum/prod of integers accumulate in int64, as in ATen
  }
  return OutMeta{sizes, out_dtype};
}

OutMeta mm(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.dim() == 2 && b.dim() == 2, "mm: expected 2-D tensors, got ", a.dim(), "-D and ",
              b.dim(), "-D");
  TORCH_CHECK(a.size(1) == b.size(0), "mm: shapes cannot be multiplied (", a.size(0), "x",
              a.size(1), " and ", b.size(0), "x", b.size(1), ")");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "mm: expected both operands of one dtype, got ",
              a.scalar_type(), " and ", b.scalar_type());
  return make({a.size(0), b.size(1)}, a.scalar_type());
}

OutMeta bmm(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "bmm: expected 3-D tensors, got ", a.dim(), "-D and ",
              b.dim(), "-D");
  TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "bmm: shapes ", a.sizes(), " and ",
              b.sizes(), " cannot be multiplied");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "bmm: expected both operands of one dtype, got ",
              a.scalar_type(), " and ", b.scalar_type());
  return make({a.size(0), a.size(1), b.size(2)}, a.scalar_type());
}

OutMeta scalar(const at::Tensor& a) { return make({}, a.scalar_type()); }

OutMeta mv(const at::Tensor& mat, const at::Tensor& vec) {
  TORCH_CHECK(mat.dim() == 2 && vec.dim() == 1, "vector + matrix @ vector expected, got ",
              mat.dim(), ", ", vec.dim());
  TORCH_CHECK(mat.size(1) == vec.size(0), "size mismatch, got ", mat.size(0), "x", mat.size(1),
              ", ", vec.size(0));
  TORCH_CHECK(mat.scalar_type() == vec.scalar_type(), "expected both operands of one dtype, got ",
              mat.scalar_type(), " and ", vec.scalar_type());
  return make({mat.size(0)}, mat.scalar_type());
}

OutMeta diag(const at::Tensor& a, int64_t diagonal) {
  TORCH_CHECK(a.dim() == 1 || a.dim() == 2, "diag(): Supports 1D or 2D tensors. Got ", a.dim(),
              "D");
  if (a.dim() == 1) {
    const int64_t n = a.size(0) + (diagonal < 0 ? -diagonal : diagonal);
    return make({n, n}, a.scalar_type());
  }
  const int64_t len = diagonal >= 0 ? std::min(a.size(0), a.size(1) - diagonal)
                                    : std::min(a.size(0) + diagonal, a.size(1));
  return make({std::max<int64_t>(len, 0)}, a.scalar_type());
}

OutMeta dot(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.dim() == 1 && b.dim() == 1, "1D tensors expected, but got ", a.dim(), "D and ",
              b.dim(), "D tensors");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(),
              "dot : expected both vectors to have same dtype, but found ", a.scalar_type(),
              " and ", b.scalar_type());
  TORCH_CHECK(a.numel() == b.numel(), "inconsistent tensor size, expected tensor [", a.numel(),
              "] and src [", b.numel(), "] to have the same number of elements, but got ",
              a.numel(), " and ", b.numel(), " elements respectively");
  return make({}, a.scalar_type());
}

OutMeta outer(const at::Tensor& a, const at::Tensor& b) {
  TORCH_CHECK(a.dim() == 1 && b.dim() == 1, "addr: expected 1-D vectors, got ", a.dim(), "-D and ",
              b.dim(), "-D");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(), "addr: expected vectors of one dtype, got ",
              a.scalar_type(), " and ", b.scalar_type());
  return make({a.size(0), b.size(0)}, a.scalar_type());
}

OutMeta nll_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction) {
  TORCH_CHECK(input.dim() == 1 || input.dim() == 2, "nll_loss: input must be 1-D or 2-D, got ",
              input.dim(), "-D");
  TORCH_CHECK(target.scalar_type() == at::kLong, "nll_loss: target must be int64, got ",
              target.scalar_type());
  const int64_t batch = input.dim() == 2 ? input.size(0) : 1;
  TORCH_CHECK(target.numel() == batch, "nll_loss: expected ", batch, " targets, got ",
              target.numel());
  if (reduction == 0 && input.dim() == 2) return make({batch}, input.scalar_type());
  return make({}, input.scalar_type());
}

OutMeta pointwise_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction) {
  const OutMeta b = broadcast(input, target);
  if (reduction == 0) return b;
  return make({}, b.dtype);
}

OutMeta cast(const at::Tensor& a, at::ScalarType dtype) { return make(a.sizes(), dtype); }

OutMeta like_float(const at::Tensor& a) {
  const at::ScalarType t = a.scalar_type();
  return make(a.sizes(), at::isIntegralType(t, /*includeBool=*/true)
                             ? c10::typeMetaToScalarType(c10::get_default_dtype())
                             : t);
}

OutMeta like_bool(const at::Tensor& a) { return make(a.sizes(), at::kBool); }

OutMeta like_int64(const at::Tensor& a) { return make(a.sizes(), at::kLong); }

OutMeta like_int32(const at::Tensor& a) { return make(a.sizes(), at::kInt); }

OutMeta bool_scalar(const at::Tensor& /*a*/) { return OutMeta{{}, at::kBool}; }

OutMeta like(const c10::optional<at::Tensor>& a) {
  TORCH_CHECK(a.has_value() && a->defined(), "output rule like(): the tensor is absent");
  return like(*a);
}

namespace {

int64_t wrap(int64_t dim, int64_t ndim, const char* op) {
  const int64_t n = ndim > 0 ? ndim : 1;
  TORCH_CHECK(dim >= -n && dim < n, op, ": dim ", dim, " out of range for a ", ndim, "-D tensor");
  return dim < 0 ? dim + n : dim;
}

}  // namespace

// ---- indexing, joining ----

OutMeta embedding(const at::Tensor& weight, const at::Tensor& indices) {
  TORCH_CHECK(weight.dim() == 2, "embedding: weight must be 2-D, got ", weight.dim(), "-D");
  TORCH_CHECK(indices.scalar_type() == at::kLong || indices.scalar_type() == at::kInt,
              "embedding: indices must be int32 or int64, got ", indices.scalar_type());
  c10::SmallVector<int64_t, 6> sizes(indices.sizes().begin(), indices.sizes().end());
  sizes.push_back(weight.size(1));
  return OutMeta{sizes, weight.scalar_type()};
}

OutMeta embedding_backward(const at::Tensor& grad_output, int64_t num_weights) {
  TORCH_CHECK(grad_output.dim() >= 1, "embedding_backward: grad_output must have a dim");
  return make({num_weights, grad_output.size(-1)}, grad_output.scalar_type());
}

OutMeta index_select(const at::Tensor& self, int64_t dim, const at::Tensor& index) {
  TORCH_CHECK(index.dim() <= 1, "index_select: index must be 0-D or 1-D, got ", index.dim(), "-D");
  const int64_t d = wrap(dim, self.dim(), "index_select");
  if (self.dim() == 0) return make({}, self.scalar_type());
  c10::SmallVector<int64_t, 6> sizes(self.sizes().begin(), self.sizes().end());
  sizes[d] = index.numel();
  return OutMeta{sizes, self.scalar_type()};
}

OutMeta gather(const at::Tensor& self, const at::Tensor& index) {
  return make(index.sizes(), self.scalar_type());
}

OutMeta shape(const at::Tensor& dtype_of, at::IntArrayRef sizes) {
  return make(sizes, dtype_of.scalar_type());
}

OutMeta shape(const at::Tensor& dtype_of, const at::Tensor& shape_of) {
  return make(shape_of.sizes(), dtype_of.scalar_type());
}

namespace {

// Legacy rule kept by ATen 1.13: 1-D empty tensors are skipped by cat.
bool cat_skipped(const at::Tensor& t) { return t.dim() == 1 && t.size(0) == 0; }

template <class List>
OutMeta cat_impl(const List& tensors, int64_t dim) {
  const at::Tensor* ref = nullptr;
  c10::optional<at::ScalarType> dtype;
  for (const at::Tensor& t : tensors) {
    dtype = dtype ? promote(*dtype, t.scalar_type()) : t.scalar_type();
    if (!ref && !cat_skipped(t)) ref = &t;
  }
  TORCH_CHECK(dtype.has_value(), "torch.cat(): expected a non-empty list of Tensors");
  if (!ref) return make({0}, *dtype);
  TORCH_CHECK(ref->dim() > 0, "zero-dimensional tensor cannot be concatenated");
  const int64_t d = wrap(dim, ref->dim(), "cat");
  c10::SmallVector<int64_t, 6> sizes(ref->sizes().begin(), ref->sizes().end());
  sizes[d] = 0;
  for (const at::Tensor& t : tensors) {
    if (cat_skipped(t)) continue;
    TORCH_CHECK(t.dim() == ref->dim(), "Tensors must have same number of dimensions: got ",
                ref->dim(), " and ", t.dim());
    for (int64_t i = 0; i < t.dim(); ++i) {
      TORCH_CHECK(i == d || t.size(i) == ref->size(i),
                  "Sizes of tensors must match except in "
                  "dimension ",
                  d, ". Expected size ", ref->size(i), " but got size ", t.size(i),
                  " for tensor number in the list.");
    }
    sizes[d] += t.size(d);
  }
  return OutMeta{sizes, *dtype};
}

}  // namespace

OutMeta cat(const at::ITensorListRef& tensors, int64_t dim) { return cat_impl(tensors, dim); }
OutMeta cat(at::TensorList tensors, int64_t dim) { return cat_impl(tensors, dim); }

OutMeta stack(at::TensorList tensors, int64_t dim) {
  TORCH_CHECK(!tensors.empty(), "stack expects a non-empty TensorList");
  const at::Tensor& ref = tensors[0];
  at::ScalarType dtype = ref.scalar_type();
  for (const at::Tensor& t : tensors) {
    TORCH_CHECK(t.sizes().equals(ref.sizes()),
                "stack expects each tensor to be equal size, but "
                "got ",
                ref.sizes(), " at entry 0 and ", t.sizes(), " at another entry");
    dtype = promote(dtype, t.scalar_type());
  }
  const int64_t d = wrap(dim, ref.dim() + 1, "stack");
  c10::SmallVector<int64_t, 6> sizes(ref.sizes().begin(), ref.sizes().end());
  sizes.insert(sizes.begin() + d, static_cast<int64_t>(tensors.size()));
  return OutMeta{sizes, dtype};
}

OutMeta arange(const at::Scalar& start, const at::Scalar& end, const at::Scalar& step,
               const at::Tensor& out) {
  // ATen sizes an int64 range from the bounds truncated to int64 (arange(0.0, -8.000001, -4.0)
  // has 2 elements in int64, 3 in float), every other dtype in double arithmetic.
  const bool floating =
      out.scalar_type() != at::kLong &&
      (start.isFloatingPoint() || end.isFloatingPoint() || step.isFloatingPoint());
  int64_t n = 0;
  if (floating) {
    const double s = step.to<double>();
    TORCH_CHECK(s != 0, "step must be nonzero");
    const double len = std::ceil((end.to<double>() - start.to<double>()) / s);
    TORCH_CHECK(std::isfinite(len), "unsupported range: ", start, " -> ", end);
    n = len > 0 ? static_cast<int64_t>(len) : 0;
  } else {
    const int64_t s = step.to<int64_t>();
    TORCH_CHECK(s != 0, "step must be nonzero");
    const int64_t span = end.to<int64_t>() - start.to<int64_t>();
    TORCH_CHECK((s > 0 && span >= 0) || (s < 0 && span <= 0),
                "upper bound and larger bound inconsistent with step sign");
    n = s > 0 ? (span + s - 1) / s : (span + s + 1) / s;
  }
  // A factory writes in whatever dtype its out= has: ATen checks no result type there
  // (arange(0.0, -8.000001, -4.0, dtype=int64) is legal). kLong casts to every numeric out,
  // as linspace's rule does; kFloat refused an integer out.
  return make({n}, at::kLong);
}

// ---- reductions along one dim ----

namespace {
// The shape of a reduction over `dim`; an empty `dim` is fine (a sum or product of nothing).
OutMeta reduced(const at::Tensor& a, int64_t dim, bool keepdim) {
  const int64_t d = wrap(dim, a.dim(), "reduction");
  c10::SmallVector<int64_t, 6> sizes;
  for (int64_t i = 0; i < a.dim(); ++i) {
    if (i != d) {
      sizes.push_back(a.size(i));
    } else if (keepdim) {
      sizes.push_back(1);
    }
  }
  return OutMeta{sizes, a.scalar_type()};
}
}  // namespace

// max / min / argmax along a dim: those have no value over an empty dim.
OutMeta reduce_dim(const at::Tensor& a, int64_t dim, bool keepdim) {
  TORCH_CHECK(a.dim() == 0 || a.size(wrap(dim, a.dim(), "reduction")) > 0,
              "cannot reduce over dim ", dim, " of a tensor with no elements along it");
  return reduced(a, dim, keepdim);
}

OutMeta argreduce(const at::Tensor& a, int64_t dim, bool keepdim) {
  OutMeta m = reduce_dim(a, dim, keepdim);
  m.dtype = at::kLong;
  return m;
}

OutMeta reduce_all(const at::Tensor& a, c10::optional<at::ScalarType> dtype) {
  at::ScalarType t = a.scalar_type();
  if (dtype.has_value()) {
    t = *dtype;
  } else if (at::isIntegralType(t, /*includeBool=*/true)) {
    t = at::kLong;
  }
  return OutMeta{{}, t};
}

OutMeta reduce_one(const at::Tensor& a, int64_t dim, bool keepdim,
                   c10::optional<at::ScalarType> dtype) {
  OutMeta m = reduced(a, dim, keepdim);
  m.dtype = rules::reduce_all(a, dtype).dtype;
  return m;
}

OutMeta reduce_dim_bool(const at::Tensor& a, int64_t dim, bool keepdim) {
  OutMeta m = reduced(a, dim, keepdim);
  m.dtype = at::kBool;
  return m;
}

OutMeta topk(const at::Tensor& a, int64_t k, int64_t dim) {
  const int64_t d = wrap(dim, a.dim(), "topk");
  const int64_t len = a.dim() == 0 ? 1 : a.size(d);
  TORCH_CHECK(k >= 0 && k <= len, "topk: k (", k, ") is out of range for dim ", dim, " of size ",
              len);
  c10::SmallVector<int64_t, 6> sizes(a.sizes().begin(), a.sizes().end());
  if (a.dim() > 0) sizes[static_cast<size_t>(d)] = k;
  return OutMeta{sizes, a.scalar_type()};
}

OutMeta topk_indices(const at::Tensor& a, int64_t k, int64_t dim) {
  OutMeta m = rules::topk(a, k, dim);
  m.dtype = at::kLong;
  return m;
}

OutMeta randperm(int64_t n) {
  TORCH_CHECK(n >= 0, "randperm: n must be non-negative, got ", n);
  return OutMeta{{n}, at::kLong};
}

OutMeta linspace(int64_t steps) {
  TORCH_CHECK(steps >= 0, "number of steps must be non-negative");
  return OutMeta{{steps}, at::kLong};
}

OutMeta repeat(const at::Tensor& a, at::IntArrayRef repeats) {
  TORCH_CHECK(static_cast<int64_t>(repeats.size()) >= a.dim(),
              "Number of dimensions of repeat dims can not be smaller than number of dimensions "
              "of tensor");
  const size_t lead = repeats.size() - static_cast<size_t>(a.dim());
  c10::SmallVector<int64_t, 6> sizes;
  for (size_t i = 0; i < repeats.size(); ++i) {
    TORCH_CHECK(repeats[i] >= 0, "repeat: repeats must be non-negative, got ", repeats[i]);
    sizes.push_back(repeats[i] * (i < lead ? 1 : a.size(static_cast<int64_t>(i - lead))));
  }
  return OutMeta{sizes, a.scalar_type()};
}

OutMeta argreduce(const at::Tensor& a, c10::optional<int64_t> dim, bool keepdim) {
  if (dim.has_value()) return argreduce(a, *dim, keepdim);
  TORCH_CHECK(a.numel() > 0, "argmax/argmin of an empty tensor has no result");
  c10::SmallVector<int64_t, 6> sizes;
  if (keepdim) sizes.assign(static_cast<size_t>(a.dim()), 1);
  return OutMeta{sizes, at::kLong};
}

OutMeta cumsum(const at::Tensor& a, c10::optional<at::ScalarType> dtype) {
  at::ScalarType t = a.scalar_type();
  if (dtype.has_value()) {
    t = *dtype;
  } else if (at::isIntegralType(t, /*includeBool=*/true)) {
    t = at::kLong;
  }
  return make(a.sizes(), t);
}

}  // namespace rules

}  // namespace opweave
