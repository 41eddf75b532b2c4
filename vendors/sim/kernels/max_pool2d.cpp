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
    const View out = output_view(out_h, "out");
    const View indices = output_view(indices_h, "indices");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
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
            int64_t best_index = i0 * g.w + j0;
            double best = -std::numeric_limits<double>::infinity();
            for (int64_t i = i0; i < i1; i += g.dh)
              for (int64_t j = j0; j < j1; j += g.dw) {
                const double v = plane[i * g.w + j];
                if (v > best || std::isnan(v)) {
                  best = v;
                  best_index = i * g.w + j;
                }
              }
            const int64_t k = (pl * g.oh + oi) * g.ow + oj;
            y[k] = best;
            where[k] = best_index;
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
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    const View indices = input_view(indices_h, "indices");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
    const PoolGeom g = pool_geometry(input, kernel_size, stride, padding, dilation, ceil_mode);
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    check_pooled(go, input, g.oh, g.ow, "grad_output");
    check_pooled(indices, input, g.oh, g.ow, "indices");
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<int64_t> where = packed<int64_t>(indices);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      const int64_t per_plane = g.oh * g.ow;
      for (int64_t pl = 0; pl < g.planes; ++pl)
        for (int64_t q = 0; q < per_plane; ++q) {
          const int64_t k = pl * per_plane + q;
          const int64_t idx = where[k];
          if (idx < 0 || idx >= g.h * g.w)
            throw std::runtime_error("max_pool2d_backward: index " + std::to_string(idx) +
                                     " is out of the input plane");
          dx[pl * g.h * g.w + idx] += dy[k];
        }
      unpack(gi, dx);
    });
  });
}
