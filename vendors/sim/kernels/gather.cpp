// The `gather` family: Gathers values of input along dim at the positions of index, and scatters
// gradients back. DIOPI: diopiGather, diopiGatherBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/index.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// torch treats a 0-dim input, index or output as one element along a dim of size 1 (a 0-dim
// input gathered with a [1] index is legal).
View at_least_1d(View v) {
  if (v.ndim == 0) {
    v.ndim = 1;
    v.sizes[0] = 1;
    v.strides[0] = 1;
  }
  return v;
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
    const View out = at_least_1d(output_view(out_h, "out"));
    const View input = at_least_1d(input_view(input_h, "input"));
    const View index = at_least_1d(input_view(index_h, "index"));
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
    const View gi = at_least_1d(output_view(grad_input_h, "grad_input"));
    const View go = at_least_1d(input_view(grad_output_h, "grad_output"));
    const View input = at_least_1d(input_view(input_h, "input"));
    const View index = at_least_1d(input_view(index_h, "index"));
    check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
    check_dtype(gi, kAllTypes, "grad_input");
    const int d = wrap_dim(dim, input.ndim);
    check_gather_shapes(input, index, d);
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    SIMK_CHECK(same_shape(go, index), "grad_output has shape %s, index %s", go.shape_str().c_str(),
               index.shape_str().c_str());
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
