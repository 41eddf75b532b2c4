#include "opweave/output_rules.h"

#include <ATen/ExpandUtils.h>
#include <ATen/WrapDimUtilsMulti.h>
#include <ATen/native/Resize.h>
#include <ATen/ops/empty.h>

#include "opweave/op_registry.h"

namespace opweave {
namespace rules {
namespace {

OutMeta make(at::IntArrayRef sizes, at::ScalarType dtype) {
  return OutMeta{c10::SmallVector<int64_t, 6>(sizes.begin(), sizes.end()), dtype};
}

}  // namespace

OutMeta like(const at::Tensor& a) { return make(a.sizes(), a.scalar_type()); }

OutMeta broadcast(const at::Tensor& a, const at::Tensor& b) {
  return make(at::infer_size_dimvector(a.sizes(), b.sizes()), at::result_type(a, b));
}

OutMeta broadcast(const at::Tensor& a, const at::Scalar& b) {
  return make(a.sizes(), at::result_type(a, b));
}

OutMeta broadcast(const at::Tensor& a, const at::Tensor& b, const at::Tensor& c) {
  auto ab = at::infer_size_dimvector(a.sizes(), b.sizes());
  auto dtype = at::promote_types(at::result_type(a, b), at::result_type(b, c));
  return make(at::infer_size_dimvector(ab, c.sizes()), dtype);
}

OutMeta compare(const at::Tensor& a, const at::Tensor& b) {
  return make(at::infer_size_dimvector(a.sizes(), b.sizes()), at::kBool);
}

OutMeta compare(const at::Tensor& a, const at::Scalar&) { return make(a.sizes(), at::kBool); }

OutMeta select(const at::Tensor& condition, const at::Tensor& a, const at::Tensor& b) {
  auto ab = at::infer_size_dimvector(a.sizes(), b.sizes());
  return make(at::infer_size_dimvector(condition.sizes(), ab), at::result_type(a, b));
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
  TORCH_CHECK(a.dim() == 3 && b.dim() == 3, "bmm: expected 3-D tensors, got ", a.dim(),
              "-D and ", b.dim(), "-D");
  TORCH_CHECK(a.size(0) == b.size(0) && a.size(2) == b.size(1), "bmm: shapes ", a.sizes(),
              " and ", b.sizes(), " cannot be multiplied");
  TORCH_CHECK(a.scalar_type() == b.scalar_type(),
              "bmm: expected both operands of one dtype, got ", a.scalar_type(), " and ",
              b.scalar_type());
  return make({a.size(0), a.size(1), b.size(2)}, a.scalar_type());
}

OutMeta scalar(const at::Tensor& a) { return make({}, a.scalar_type()); }

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

OutMeta cast(const at::Tensor& a, at::ScalarType dtype) { return make(a.sizes(), dtype); }

}  // namespace rules

at::Tensor allocate(const OutMeta& meta, const at::Tensor& like) {
  return at::empty(meta.sizes, like.options().dtype(meta.dtype));
}

void resize_out(int op, const at::Tensor& out, const OutMeta& meta) {
  TORCH_CHECK(at::canCast(meta.dtype, out.scalar_type()), op_info(op).aten_name, ": result type ",
              meta.dtype, " can't be cast to the desired output type ", out.scalar_type());
  at::native::resize_output(out, meta.sizes);
}

void check_inplace(int op, const at::Tensor& self, const OutMeta& meta) {
  TORCH_CHECK(self.sizes().equals(meta.sizes), op_info(op).aten_name, ": output with shape ",
              self.sizes(), " doesn't match the broadcast shape ", at::IntArrayRef(meta.sizes));
  TORCH_CHECK(at::canCast(meta.dtype, self.scalar_type()), op_info(op).aten_name,
              ": result type ", meta.dtype, " can't be cast to the desired output type ",
              self.scalar_type());
}

}  // namespace opweave
