// The `adaptive_max_pool2d` family: 2-D adaptive max pooling to output_size (windows as ATen
// splits them) with the flat (H * W) index of each maximum, and its backward.
// DIOPI: diopiAdaptiveMaxPool2dWithIndices, diopiAdaptiveMaxPool2dBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/pool.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                               diopiTensorHandle_t indices_h,
                                               diopiConstTensorHandle_t input_h,
                                               diopiSize_t output_size) {
  SIMK_KERNEL(diopiAdaptiveMaxPool2dWithIndices);
  return guarded(kernel.name, [&] {
    const MaxPoolViews v = max_pool_views(out_h, indices_h, input_h);
    const View &out = v.out, &indices = v.indices, &input = v.input;
    const PoolGeom g = adaptive_geometry(out, input, output_size);
    SIMK_CHECK(g.h > 0 && g.w > 0, "input %s has an empty plane", input.shape_str().c_str());
    check_pooled(indices, input, g.oh, g.ow, "indices");
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.oh * g.ow));
      std::vector<int64_t> where(y.size());
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        const double* plane = x.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i0 = adaptive_start(oi, g.oh, g.h), i1 = adaptive_end(oi, g.oh, g.h);
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j0 = adaptive_start(oj, g.ow, g.w), j1 = adaptive_end(oj, g.ow, g.w);
            ArgMax m(i0 * g.w + j0);
            for (int64_t i = i0; i < i1; ++i)
              for (int64_t j = j0; j < j1; ++j) m.offer(plane[i * g.w + j], i * g.w + j);
            const int64_t k = (pl * g.oh + oi) * g.ow + oj;
            y[k] = m.best;
            where[k] = m.index;
          }
        }
      }
      unpack(out, y);
      unpack(indices, where);
    });
  });
}

diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx,
                                            diopiTensorHandle_t grad_input_h,
                                            diopiConstTensorHandle_t grad_output_h,
                                            diopiConstTensorHandle_t input_h,
                                            diopiConstTensorHandle_t indices_h) {
  SIMK_KERNEL(diopiAdaptiveMaxPool2dBackward);
  return guarded(kernel.name, [&] {
    const MaxPoolGradViews v = max_pool_grad_views(grad_input_h, grad_output_h, input_h, indices_h);
    const View &gi = v.grad_input, &go = v.grad_output, &input = v.input, &indices = v.indices;
    const PoolGeom g = planes_of(input);
    SIMK_CHECK(go.ndim == input.ndim && same_shape(go, indices),
               "grad_output %s and indices %s must have one shape of input's rank",
               go.shape_str().c_str(), indices.shape_str().c_str());
    const int64_t per_plane = go.ndim >= 2 ? go.sizes[go.ndim - 2] * go.sizes[go.ndim - 1] : 0;
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<int64_t> where = packed<int64_t>(indices);
      std::vector<double> dx = scatter_to_indices(dy, where, g.planes, per_plane, g.h * g.w,
                                                  "adaptive_max_pool2d_backward");
      unpack(gi, dx);
    });
  });
}
