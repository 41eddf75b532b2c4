// The `max_pool2d` family: 2-D max pooling with the flat (H * W) index of each window's maximum,
// and its backward. DIOPI: diopiMaxPool2dWithIndices, diopiMaxPool2dBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/pool.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                       diopiTensorHandle_t indices_h,
                                       diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                                       diopiSize_t stride, diopiSize_t padding,
                                       diopiSize_t dilation, bool ceil_mode) {
  SIMK_KERNEL(diopiMaxPool2dWithIndices);
  return guarded(kernel.name, [&] {
    const MaxPoolViews v = max_pool_views(out_h, indices_h, input_h);
    const View &out = v.out, &indices = v.indices, &input = v.input;
    const PoolGeom g = pool_geometry(input, kernel_size, stride, padding, dilation, ceil_mode);
    check_pooled(out, input, g.oh, g.ow, "out");
    check_pooled(indices, input, g.oh, g.ow, "indices");
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.oh * g.ow));
      std::vector<int64_t> where(y.size());
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        const double* plane = x.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi)
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            int64_t i0 = oi * g.sh - g.ph, j0 = oj * g.sw - g.pw;
            const int64_t i1 = std::min(i0 + (g.kh - 1) * g.dh + 1, g.h);
            const int64_t j1 = std::min(j0 + (g.kw - 1) * g.dw + 1, g.w);
            while (i0 < 0) i0 += g.dh;
            while (j0 < 0) j0 += g.dw;
            ArgMax m(i0 * g.w + j0);
            for (int64_t i = i0; i < i1; i += g.dh)
              for (int64_t j = j0; j < j1; j += g.dw) m.offer(plane[i * g.w + j], i * g.w + j);
            const int64_t k = (pl * g.oh + oi) * g.ow + oj;
            y[k] = m.best;
            where[k] = m.index;
          }
      }
      unpack(out, y);
      unpack(indices, where);
    });
  });
}

diopiError_t diopiMaxPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                    diopiConstTensorHandle_t grad_output_h,
                                    diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                                    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation,
                                    bool ceil_mode, diopiConstTensorHandle_t indices_h) {
  SIMK_KERNEL(diopiMaxPool2dBackward);
  return guarded(kernel.name, [&] {
    const MaxPoolGradViews v = max_pool_grad_views(grad_input_h, grad_output_h, input_h, indices_h);
    const View &gi = v.grad_input, &go = v.grad_output, &input = v.input, &indices = v.indices;
    const PoolGeom g = pool_geometry(input, kernel_size, stride, padding, dilation, ceil_mode);
    check_pooled(go, input, g.oh, g.ow, "grad_output");
    check_pooled(indices, input, g.oh, g.ow, "indices");
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<int64_t> where = packed<int64_t>(indices);
      std::vector<double> dx =
          scatter_to_indices(dy, where, g.planes, g.oh * g.ow, g.h * g.w, "max_pool2d_backward");
      unpack(gi, dx);
    });
  });
}
