// The `index_select` family: Selects slices of input along dim by a 1-D index, and scatters
// gradients back. DIOPI: diopiIndexSelect, diopiIndexSelectBackward.
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

// dst += src (double views of one shape; dst may be any strides).
void accumulate(const View& dst, const View& src) {
  const View* ins[2] = {&dst, &src};
  map<double, double, double>(dst, ins, [](double a, double b) { return a + b; });
}

}  // namespace

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
