// The `adaptive_avg_pool2d` family: 2-D adaptive average pooling to output_size (windows as ATen
// splits them), and its backward. DIOPI: diopiAdaptiveAvgPool2d, diopiAdaptiveAvgPool2dBackward.
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

diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                    diopiConstTensorHandle_t input_h, diopiSize_t output_size) {
  SIMK_KERNEL(diopiAdaptiveAvgPool2d);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    const PoolGeom g = adaptive_geometry(out, input, output_size);
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.oh * g.ow));
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        const double* plane = x.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i0 = adaptive_start(oi, g.oh, g.h), i1 = adaptive_end(oi, g.oh, g.h);
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j0 = adaptive_start(oj, g.ow, g.w), j1 = adaptive_end(oj, g.ow, g.w);
            double sum = 0;
            for (int64_t i = i0; i < i1; ++i)
              for (int64_t j = j0; j < j1; ++j) sum += plane[i * g.w + j];
            y[(pl * g.oh + oi) * g.ow + oj] = sum / static_cast<double>((i1 - i0) * (j1 - j0));
          }
        }
      }
      unpack(out, y);
    });
  });
}

diopiError_t diopiAdaptiveAvgPool2dBackward(diopiContextHandle_t ctx,
                                            diopiTensorHandle_t grad_input_h,
                                            diopiConstTensorHandle_t grad_output_h,
                                            diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiAdaptiveAvgPool2dBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    PoolGeom g = planes_of(input);
    SIMK_CHECK(go.ndim == input.ndim, "grad_output %s does not match input %s",
               go.shape_str().c_str(), input.shape_str().c_str());
    g.oh = go.sizes[go.ndim - 2], g.ow = go.sizes[go.ndim - 1];
    check_pooled(go, input, g.oh, g.ow, "grad_output");
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        double* plane = dx.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i0 = adaptive_start(oi, g.oh, g.h), i1 = adaptive_end(oi, g.oh, g.h);
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j0 = adaptive_start(oj, g.ow, g.w), j1 = adaptive_end(oj, g.ow, g.w);
            const double share =
                dy[(pl * g.oh + oi) * g.ow + oj] / static_cast<double>((i1 - i0) * (j1 - j0));
            for (int64_t i = i0; i < i1; ++i)
              for (int64_t j = j0; j < j1; ++j) plane[i * g.w + j] += share;
          }
        }
      }
      unpack(gi, dx);
    });
  });
}
