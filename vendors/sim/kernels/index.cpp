// Indexing and joining: embedding (+ backward), index_select (+ backward), gather (+ backward),
// masked_fill, triu / tril, cat, stack, arange and zero.
//
// Data movement is cast_copy between views (select / narrow of the operands), so every dtype and
// layout works and nothing is re-implemented per dtype; gradients are accumulated in double over
// contiguous copies and written back in the output's dtype and layout. An out-of-range index
// fails the stream (like a device-side assert), naming the kernel.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

constexpr uint32_t kIndexTypes = dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);

void check_index(int64_t i, int64_t size, const char* what) {
  if (i < 0 || i >= size)
    throw std::runtime_error(std::string(what) + ": index " + std::to_string(i) +
                             " is out of bounds for size " + std::to_string(size));
}

// dst += src (double views of one shape; dst may be any strides).
void accumulate(const View& dst, const View& src) {
  const View* ins[2] = {&dst, &src};
  map<double, double, double>(dst, ins, [](double a, double b) { return a + b; });
}

void fill_zero(const View& v) {
  dispatch<kAllTypes>(v.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    map_fill<T>(v, [] { return acc_t<T>(0); });
  });
}

// The leading dims of `v` (all but the last `keep`) as their own view.
View leading(const View& v, int keep) {
  View l = v;
  l.ndim = v.ndim - keep;
  return l;
}

// v's trailing `keep` dims at the row-major position `k` of its leading dims.
View trailing_at(const View& v, int keep, int64_t k) {
  const View lead = leading(v, keep);
  View t;
  t.data = v.data + offset_of(lead, k) * v.itemsize();
  t.dtype = v.dtype;
  t.ndim = keep;
  for (int d = 0; d < keep; ++d) {
    t.sizes[d] = v.sizes[lead.ndim + d];
    t.strides[d] = v.strides[lead.ndim + d];
  }
  return t;
}

std::string shape_plus(const View& v, int64_t extra) {
  View w = v;
  w.sizes[w.ndim++] = extra;
  return w.shape_str();
}

}  // namespace

// ---------------------------------------------------------------- embedding

diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t weight_h, diopiConstTensorHandle_t indices_h,
                            int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
  SIMK_KERNEL(diopiEmbedding);
  (void)padding_idx, (void)scale_grad_byfreq, (void)sparse;  // they only shape the backward
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View weight = input_view(weight_h, "weight");
    const View indices = input_view(indices_h, "indices");
    check_dtype(indices, kIndexTypes, "indices");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(weight.ndim == 2, "weight must be 2-D, got %s", weight.shape_str().c_str());
    SIMK_CHECK(indices.ndim + 1 < kMaxDims, "indices have too many dims");
    View expected = indices;
    expected.sizes[expected.ndim++] = weight.sizes[1];
    SIMK_CHECK(same_shape(out, expected), "out has shape %s, expected %s",
               out.shape_str().c_str(), expected.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(indices);
      for (int64_t k = 0; k < static_cast<int64_t>(idx.size()); ++k) {
        check_index(idx[k], weight.sizes[0], "embedding");
        cast_copy(trailing_at(out, 1, k), select(weight, 0, idx[k]));
      }
    });
  });
}

diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                    diopiConstTensorHandle_t grad_h,
                                    diopiConstTensorHandle_t indices_h, int64_t num_weights,
                                    int64_t padding_idx, bool scale_grad_byfreq, bool sparse) {
  SIMK_KERNEL(diopiEmbeddingBackward);
  (void)sparse;  // the gradient is dense either way
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View grad = input_view(grad_h, "grad");
    const View indices = input_view(indices_h, "indices");
    check_dtype(indices, kIndexTypes, "indices");
    check_dtype(out, kFloating, "out");
    check_dtype(grad, kFloating, "grad");
    SIMK_CHECK(grad.ndim == indices.ndim + 1, "grad %s does not match indices %s",
               grad.shape_str().c_str(), indices.shape_str().c_str());
    for (int d = 0; d < indices.ndim; ++d)
      SIMK_CHECK(grad.sizes[d] == indices.sizes[d], "grad %s does not match indices %s",
                 grad.shape_str().c_str(), indices.shape_str().c_str());
    const int64_t dim = grad.sizes[grad.ndim - 1];
    SIMK_CHECK(out.ndim == 2 && out.sizes[0] == num_weights && out.sizes[1] == dim,
               "out has shape %s, expected [%lld, %lld]", out.shape_str().c_str(),
               static_cast<long long>(num_weights), static_cast<long long>(dim));
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(indices);
      const std::vector<double> g = packed<double>(grad);
      std::vector<int64_t> counts;
      if (scale_grad_byfreq) {
        counts.assign(num_weights, 0);
        for (int64_t i : idx) {
          check_index(i, num_weights, "embedding_backward");
          ++counts[i];
        }
      }
      std::vector<double> acc(static_cast<size_t>(num_weights * dim), 0.0);
      for (size_t k = 0; k < idx.size(); ++k) {
        const int64_t row = idx[k];
        if (row == padding_idx) continue;
        check_index(row, num_weights, "embedding_backward");
        const double scale = scale_grad_byfreq ? 1.0 / static_cast<double>(counts[row]) : 1.0;
        for (int64_t j = 0; j < dim; ++j) acc[row * dim + j] += g[k * dim + j] * scale;
      }
      unpack(out, acc);
    });
  });
}

// ---------------------------------------------------------------- index_select

diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                              diopiConstTensorHandle_t input_h, int64_t dim,
                              diopiConstTensorHandle_t index_h) {
  SIMK_KERNEL(diopiIndexSelect);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View index = input_view(index_h, "index");
    check_dtype(index, kIndexTypes, "index");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(index.ndim <= 1, "index must be 0-D or 1-D, got %s", index.shape_str().c_str());
    const int d = wrap_dim(dim, input.ndim);
    const int64_t n = index.numel();
    if (input.ndim == 0) {
      SIMK_CHECK(out.numel() == n && n == 1, "index_select of a 0-dim input takes one index");
    } else {
      View expected = input;
      expected.sizes[d] = n;
      SIMK_CHECK(same_shape(out, expected), "out has shape %s, expected %s",
                 out.shape_str().c_str(), expected.shape_str().c_str());
    }
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(index);
      if (input.ndim == 0) {
        check_index(idx[0], 1, "index_select");
        cast_copy(out, input);
        return;
      }
      for (int64_t i = 0; i < n; ++i) {
        check_index(idx[i], input.sizes[d], "index_select");
        cast_copy(select(out, d, i), select(input, d, idx[i]));
      }
    });
  });
}

diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                      diopiConstTensorHandle_t grad_h, diopiSize_t input_sizes,
                                      int64_t dim, diopiConstTensorHandle_t index_h) {
  SIMK_KERNEL(diopiIndexSelectBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View grad = input_view(grad_h, "grad");
    const View index = input_view(index_h, "index");
    check_dtype(index, kIndexTypes, "index");
    check_dtype(gi, kAllTypes, "grad_input");
    SIMK_CHECK(input_sizes.len == gi.ndim, "input_sizes has %lld dims, grad_input %s",
               static_cast<long long>(input_sizes.len), gi.shape_str().c_str());
    for (int d = 0; d < gi.ndim; ++d)
      SIMK_CHECK(input_sizes.data[d] == gi.sizes[d], "grad_input has shape %s, input_sizes differ",
                 gi.shape_str().c_str());
    const int d = wrap_dim(dim, gi.ndim);
    SIMK_CHECK(index.ndim <= 1, "index must be 0-D or 1-D, got %s", index.shape_str().c_str());
    if (gi.ndim > 0) {
      View expected = gi;
      expected.sizes[d] = index.numel();
      SIMK_CHECK(same_shape(grad, expected), "grad has shape %s, expected %s",
                 grad.shape_str().c_str(), expected.shape_str().c_str());
    }
    launch(kernel, ctx, gi, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(index);
      std::vector<double> g = packed<double>(grad);
      std::vector<double> acc(static_cast<size_t>(gi.numel()), 0.0);
      const View av = contiguous_view(acc.data(), diopi_dtype_float64, gi.sizes, gi.ndim);
      const View gv = contiguous_view(g.data(), diopi_dtype_float64, grad.sizes, grad.ndim);
      if (gi.ndim == 0) {
        for (size_t i = 0; i < idx.size(); ++i) {
          check_index(idx[i], 1, "index_select_backward");
          acc[0] += g[i];
        }
      } else {
        for (size_t i = 0; i < idx.size(); ++i) {
          check_index(idx[i], gi.sizes[d], "index_select_backward");
          accumulate(select(av, d, idx[i]), select(gv, d, static_cast<int64_t>(i)));
        }
      }
      unpack(gi, acc);
    });
  });
}

// ---------------------------------------------------------------- gather

namespace {

// Row-major walk over `index`: calls f(k, offset in `a` elements, offset in `b` elements, idx)
// where the offsets are those of position k in views a and b of index's shape, except that
// b's coordinate along `dim` is the index value.
template <class F>
void walk_gather(const View& index_shape, const View& a, const View& b, int dim,
                 const std::vector<int64_t>& idx, const char* what, F f) {
  const int nd = index_shape.ndim;
  int64_t coord[kMaxDims] = {};
  for (int64_t k = 0; k < static_cast<int64_t>(idx.size()); ++k) {
    int64_t oa = 0, ob = 0;
    for (int d = 0; d < nd; ++d) {
      oa += coord[d] * a.strides[d];
      if (d != dim) ob += coord[d] * b.strides[d];
    }
    if (nd > 0) {
      check_index(idx[k], b.sizes[dim], what);
      ob += idx[k] * b.strides[dim];
    } else {
      check_index(idx[k], 1, what);
    }
    f(k, oa, ob);
    for (int d = nd - 1; d >= 0; --d) {
      if (++coord[d] < index_shape.sizes[d]) break;
      coord[d] = 0;
    }
  }
}

void check_gather_shapes(const View& input, const View& index, int d) {
  SIMK_CHECK(index.ndim == input.ndim, "index %s and input %s must have the same number of dims",
             index.shape_str().c_str(), input.shape_str().c_str());
  for (int k = 0; k < input.ndim; ++k)
    SIMK_CHECK(k == d || index.sizes[k] <= input.sizes[k],
               "index %s is larger than input %s outside dim %d", index.shape_str().c_str(),
               input.shape_str().c_str(), d);
}

}  // namespace

diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, int64_t dim,
                         diopiConstTensorHandle_t index_h) {
  SIMK_KERNEL(diopiGather);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View index = input_view(index_h, "index");
    check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(out.dtype == input.dtype, "out has dtype %s but input %s", dtype_name(out.dtype),
               dtype_name(input.dtype));
    const int d = wrap_dim(dim, input.ndim);
    check_gather_shapes(input, index, d);
    SIMK_CHECK(same_shape(out, index), "out has shape %s, index %s", out.shape_str().c_str(),
               index.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(index);
      const int64_t size = out.itemsize();
      walk_gather(index, out, input, d, idx, "gather", [&](int64_t, int64_t oo, int64_t oi) {
        std::memcpy(out.data + oo * size, input.data + oi * size, size);
      });
    });
  });
}

diopiError_t diopiGatherBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                 diopiConstTensorHandle_t grad_output_h,
                                 diopiConstTensorHandle_t input_h, int64_t dim,
                                 diopiConstTensorHandle_t index_h) {
  SIMK_KERNEL(diopiGatherBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    const View index = input_view(index_h, "index");
    check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
    check_dtype(gi, kAllTypes, "grad_input");
    const int d = wrap_dim(dim, input.ndim);
    check_gather_shapes(input, index, d);
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s",
               gi.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(same_shape(go, index), "grad_output has shape %s, index %s",
               go.shape_str().c_str(), index.shape_str().c_str());
    launch(kernel, ctx, gi, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(index);
      const std::vector<double> g = packed<double>(go);
      std::vector<double> acc(static_cast<size_t>(gi.numel()), 0.0);
      const View av = contiguous_view(acc.data(), diopi_dtype_float64, gi.sizes, gi.ndim);
      const View gv = contiguous_view(const_cast<double*>(g.data()), diopi_dtype_float64,
                                      index.sizes, index.ndim);
      walk_gather(index, gv, av, d, idx, "gather_backward",
                  [&](int64_t, int64_t og, int64_t oa) { acc[oa] += g[og]; });
      unpack(gi, acc);
    });
  });
}

// ---------------------------------------------------------------- masked_fill

namespace {

// out = mask ? value : input, mask and input broadcast to out; value is a scalar or the single
// element of a 0-dim tensor (read on the stream). `out` may be `input`.
void masked_fill(const Kernel& kernel, diopiContextHandle_t ctx, const View& out,
                 const View& input, diopiConstTensorHandle_t mask_h,
                 diopiConstTensorHandle_t value_h, const diopiScalar_t* value_s) {
  const View mask = input_view(mask_h, "mask");
  check_dtype(out, kAllTypes, "out");
  check_dtype(input, kAllTypes, "input");
  check_dtype(mask, dtype_bit(diopi_dtype_bool) | dtype_bit(diopi_dtype_uint8), "mask");
  broadcast_to(input, out, "input");
  broadcast_to(mask, out, "mask");
  View value_t;
  Scalar value;
  const bool from_tensor = value_h != nullptr;
  if (from_tensor) {
    value_t = input_view(value_h, "value");
    check_dtype(value_t, kAllTypes, "value");
    SIMK_CHECK(value_t.ndim == 0, "value must be a 0-dim tensor, got %s",
               value_t.shape_str().c_str());
  } else {
    value = scalar_arg(value_s, "value");
  }
  launch(kernel, ctx, out, [=] {
    dispatch<kAllTypes>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      T v;
      if (from_tensor) {
        cast_copy(contiguous_view(&v, dtype_of<T>, nullptr, 0), value_t);
      } else {
        v = value.is_float ? convert<T>(value.f) : convert<T>(value.i);
      }
      const acc_t<T> fill = load(v);
      Buffer sm, si;
      const View vm = broadcast_to(as_dtype(mask, diopi_dtype_bool, sm), out, "mask");
      const View vi = broadcast_to(as_dtype(input, out.dtype, si), out, "input");
      const View* ins[2] = {&vm, &vi};
      map<T, bool, T>(out, ins, [fill](bool m, acc_t<T> x) { return m ? fill : x; });
    });
  });
}

}  // namespace

diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                             diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiMaskedFill);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(value != nullptr, "value is a null tensor");
    masked_fill(kernel, ctx, output_view(out, "out"), input_view(input, "input"), mask, value,
                nullptr);
  });
}

diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                diopiConstTensorHandle_t mask, diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiMaskedFillInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(value != nullptr, "value is a null tensor");
    const View v = output_view(input, "input");
    masked_fill(kernel, ctx, v, v, mask, value, nullptr);
  });
}

diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                                   const diopiScalar_t* value) {
  SIMK_KERNEL(diopiMaskedFillScalar);
  return guarded(kernel.name, [&] {
    masked_fill(kernel, ctx, output_view(out, "out"), input_view(input, "input"), mask, nullptr,
                value);
  });
}

diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                      diopiConstTensorHandle_t mask, const diopiScalar_t* value) {
  SIMK_KERNEL(diopiMaskedFillInpScalar);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    masked_fill(kernel, ctx, v, v, mask, nullptr, value);
  });
}

// ---------------------------------------------------------------- triu / tril

namespace {

bool same_layout(const View& a, const View& b) {
  if (a.data != b.data || a.dtype != b.dtype || !same_shape(a, b)) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d]) return false;
  return true;
}

// out = input with the elements outside the triangle zeroed: upper keeps col - row >= diagonal,
// lower keeps col - row <= diagonal.
void triangle(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
              int64_t diagonal, bool upper) {
  check_dtype(out, kAllTypes, "out");
  check_dtype(input, kAllTypes, "input");
  SIMK_CHECK(input.ndim >= 2, "input must have at least 2 dims, got %s",
             input.shape_str().c_str());
  SIMK_CHECK(same_shape(out, input), "out has shape %s but input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    if (!same_layout(out, input)) cast_copy(out, input);
    const int64_t rows = out.sizes[out.ndim - 2], cols = out.sizes[out.ndim - 1];
    int64_t batch = 1;
    for (int d = 0; d < out.ndim - 2; ++d) batch *= out.sizes[d];
    for (int64_t b = 0; b < batch; ++b) {
      const View m = trailing_at(out, 2, b);
      for (int64_t i = 0; i < rows; ++i) {
        const View row = select(m, 0, i);
        // Zeroed columns: [0, i + diagonal) for upper, [i + diagonal + 1, cols) for lower.
        int64_t lo = 0, hi = 0;
        if (upper) {
          hi = std::min(std::max<int64_t>(i + diagonal, 0), cols);
        } else {
          lo = std::min(std::max<int64_t>(i + diagonal + 1, 0), cols);
          hi = cols;
        }
        if (hi > lo) fill_zero(narrow(row, 0, lo, hi - lo));
      }
    }
  });
}

}  // namespace

diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, int64_t diagonal) {
  SIMK_KERNEL(diopiTriu);
  return guarded(kernel.name, [&] {
    triangle(kernel, ctx, output_view(out, "out"), input_view(input, "input"), diagonal, true);
  });
}

diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t diagonal) {
  SIMK_KERNEL(diopiTriuInp);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    triangle(kernel, ctx, v, v, diagonal, true);
  });
}

diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, int64_t diagonal) {
  SIMK_KERNEL(diopiTril);
  return guarded(kernel.name, [&] {
    triangle(kernel, ctx, output_view(out, "out"), input_view(input, "input"), diagonal, false);
  });
}

// ---------------------------------------------------------------- cat / stack

namespace {

std::vector<View> list_views(diopiConstTensorHandle_t* tensors, int64_t n, const char* what) {
  SIMK_CHECK(n > 0 && tensors != nullptr, "%s: expected a non-empty list of tensors", what);
  std::vector<View> views;
  for (int64_t i = 0; i < n; ++i) {
    views.push_back(input_view(tensors[i], what));
    check_dtype(views.back(), kAllTypes, what);
  }
  return views;
}

}  // namespace

diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t dim) {
  SIMK_KERNEL(diopiCat);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kAllTypes, "out");
    std::vector<View> parts;
    for (const View& v : list_views(tensors, num_inputs, "tensors"))
      if (!(v.ndim == 1 && v.sizes[0] == 0)) parts.push_back(v);  // ATen's legacy skip
    if (parts.empty()) {
      SIMK_CHECK(out.numel() == 0, "out has shape %s; all inputs are empty",
                 out.shape_str().c_str());
      return;
    }
    SIMK_CHECK(out.ndim > 0, "zero-dimensional tensors cannot be concatenated");
    const int d = wrap_dim(dim, out.ndim);
    int64_t total = 0;
    for (const View& v : parts) {
      SIMK_CHECK(v.ndim == out.ndim, "tensor %s does not match out %s", v.shape_str().c_str(),
                 out.shape_str().c_str());
      for (int k = 0; k < out.ndim; ++k)
        SIMK_CHECK(k == d || v.sizes[k] == out.sizes[k], "tensor %s does not match out %s "
                   "outside dim %d", v.shape_str().c_str(), out.shape_str().c_str(), d);
      total += v.sizes[d];
    }
    SIMK_CHECK(total == out.sizes[d], "out has %lld elements along dim %d, the inputs %lld",
               static_cast<long long>(out.sizes[d]), d, static_cast<long long>(total));
    launch(kernel, ctx, out, [=] {
      int64_t offset = 0;
      for (const View& v : parts) {
        cast_copy(narrow(out, d, offset, v.sizes[d]), v);
        offset += v.sizes[d];
      }
    });
  });
}

diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t* tensors, int64_t numTensors, int64_t dim) {
  SIMK_KERNEL(diopiStack);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kAllTypes, "out");
    const std::vector<View> parts = list_views(tensors, numTensors, "tensors");
    const int d = wrap_dim(dim, out.ndim);
    SIMK_CHECK(out.sizes[d] == numTensors, "out has %lld elements along dim %d for %lld tensors",
               static_cast<long long>(out.sizes[d]), d, static_cast<long long>(numTensors));
    const View slot = select(out, d, 0);
    for (const View& v : parts)
      SIMK_CHECK(same_shape(v, slot), "tensor %s does not match out %s without dim %d",
                 v.shape_str().c_str(), out.shape_str().c_str(), d);
    launch(kernel, ctx, out, [=] {
      for (size_t i = 0; i < parts.size(); ++i)
        cast_copy(select(out, d, static_cast<int64_t>(i)), parts[i]);
    });
  });
}

// ---------------------------------------------------------------- arange / zero

diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         const diopiScalar_t* start_s, const diopiScalar_t* end_s,
                         const diopiScalar_t* step_s) {
  SIMK_KERNEL(diopiArange);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kFloatingAndInt | kIntegral, "out");
    const Scalar start = scalar_arg(start_s, "start");
    const Scalar end = scalar_arg(end_s, "end");
    const Scalar step = scalar_arg(step_s, "step");
    SIMK_CHECK(step.as<double>() != 0, "step must be nonzero");
    SIMK_CHECK(out.ndim == 1, "out must be 1-D, got %s", out.shape_str().c_str());
    (void)end;  // the length is out's (the wrapper sized it from start, end and step)
    launch(kernel, ctx, out, [=] {
      dispatch<kFloatingAndInt | kIntegral>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        // As ATen's CPU arange: start + step * i in acc_type<T> (double for float32/64,
        // float for 16-bit floats, int64 for integers).
        using A = std::conditional_t<is_reduced_float<T>, float,
                                     std::conditional_t<std::is_floating_point<T>::value, double,
                                                        int64_t>>;
        const A a = start.as<A>(), s = step.as<A>();
        int64_t i = 0;
        map_fill<T>(out, [&] { return static_cast<acc_t<T>>(a + s * static_cast<A>(i++)); });
      });
    });
  });
}

diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self) {
  SIMK_KERNEL(diopiZeroInp);
  return guarded(kernel.name, [&] {
    const View v = output_view(self, "self");
    check_dtype(v, kAllTypes, "self");
    launch(kernel, ctx, v, [=] { fill_zero(v); });
  });
}

// ---------------------------------------------------------------- scatter

namespace {

enum class ScatterReduce { kReplace, kAdd, kMultiply };

ScatterReduce scatter_reduce(const char* reduce) {
  if (reduce == nullptr || *reduce == '\0') return ScatterReduce::kReplace;
  if (std::strcmp(reduce, "add") == 0) return ScatterReduce::kAdd;
  if (std::strcmp(reduce, "multiply") == 0) return ScatterReduce::kMultiply;
  failf(diopiErrorOccurred, "reduce must be null, \"add\" or \"multiply\", got \"%s\"", reduce);
}

// out = input (unless out is input), then for each position p of index:
// out[p with p[dim] = index[p]] (op)= src[p] (or value). Runs in index order, so with repeated
// indices the last write wins, as ATen's CPU kernel.
void scatter(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
             int64_t dim_arg, diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t src_h,
             const diopiScalar_t* value_s, const char* reduce_s) {
  const View index = input_view(index_h, "index");
  check_dtype(out, kAllTypes, "out");
  check_dtype(input, kAllTypes, "input");
  check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
  SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
             "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
             dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype));
  const int d = wrap_dim(dim_arg, input.ndim);
  const ScatterReduce reduce = scatter_reduce(reduce_s);
  const bool from_src = src_h != nullptr;
  View src;
  Scalar value;
  if (from_src) {
    src = input_view(src_h, "src");
    SIMK_CHECK(src.dtype == out.dtype, "src has dtype %s, input %s", dtype_name(src.dtype),
               dtype_name(out.dtype));
  } else {
    value = scalar_arg(value_s, "value");
  }
  if (index.numel() > 0) {
    SIMK_CHECK(index.ndim == input.ndim, "index %s and input %s must have the same number of "
               "dims", index.shape_str().c_str(), input.shape_str().c_str());
    for (int k = 0; k < input.ndim; ++k) {
      SIMK_CHECK(k == d || index.sizes[k] <= input.sizes[k], "index %s is larger than input %s "
                 "outside dim %d", index.shape_str().c_str(), input.shape_str().c_str(), d);
      SIMK_CHECK(!from_src || index.sizes[k] <= src.sizes[k], "index %s is larger than src %s",
                 index.shape_str().c_str(), src.shape_str().c_str());
    }
  }
  launch(kernel, ctx, out, [=] {
    if (out.data != input.data) cast_copy(out, input);
    const std::vector<int64_t> idx = packed<int64_t>(index);
    dispatch<kAllTypes>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      T* o = out.ptr<T>();
      const T* sp = from_src ? src.ptr<T>() : nullptr;
      const T v = from_src ? T() : (value.is_float ? convert<T>(value.f) : convert<T>(value.i));
      const View src_shape = from_src ? src : index;
      walk_gather(index, src_shape, out, d, idx, "scatter", [&](int64_t, int64_t os, int64_t oo) {
        const T x = from_src ? sp[os] : v;
        switch (reduce) {
          case ScatterReduce::kReplace:
            o[oo] = x;
            break;
          case ScatterReduce::kAdd:
            o[oo] = convert<T>(static_cast<A>(load(o[oo]) + load(x)));
            break;
          case ScatterReduce::kMultiply:
            o[oo] = convert<T>(static_cast<A>(load(o[oo]) * load(x)));
            break;
        }
      });
    });
  });
}

}  // namespace

diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, int64_t dim,
                          diopiConstTensorHandle_t src, diopiConstTensorHandle_t index,
                          const char* reduce) {
  SIMK_KERNEL(diopiScatter);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(src != nullptr, "src is a null tensor");
    scatter(kernel, ctx, output_view(out, "out"), input_view(input, "input"), dim, index, src,
            nullptr, reduce);
  });
}

diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim,
                             diopiConstTensorHandle_t src, diopiConstTensorHandle_t index,
                             const char* reduce) {
  SIMK_KERNEL(diopiScatterInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(src != nullptr, "src is a null tensor");
    const View v = output_view(input, "input");
    scatter(kernel, ctx, v, v, dim, index, src, nullptr, reduce);
  });
}

diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, int64_t dim,
                                const diopiScalar_t* value, diopiConstTensorHandle_t index,
                                const char* reduce) {
  SIMK_KERNEL(diopiScatterScalar);
  return guarded(kernel.name, [&] {
    scatter(kernel, ctx, output_view(out, "out"), input_view(input, "input"), dim, index,
            nullptr, value, reduce);
  });
}

diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   int64_t dim, const diopiScalar_t* value,
                                   diopiConstTensorHandle_t index, const char* reduce) {
  SIMK_KERNEL(diopiScatterInpScalar);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    scatter(kernel, ctx, v, v, dim, index, nullptr, value, reduce);
  });
}
