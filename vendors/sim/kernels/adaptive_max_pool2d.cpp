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
    const View out = output_view(out_h, "out");
    const View indices = output_view(indices_h, "indices");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
    PoolGeom g = planes_of(input);
    SIMK_CHECK(output_size.len == 2 && output_size.data[0] >= 0 && output_size.data[1] >= 0,
               "output_size must be two non-negative sizes");
    SIMK_CHECK(g.h > 0 && g.w > 0, "input %s has an empty plane", input.shape_str().c_str());
    g.oh = output_size.data[0], g.ow = output_size.data[1];
    check_pooled(out, input, g.oh, g.ow, "out");
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
            int64_t best_index = i0 * g.w + j0;
            double best = -std::numeric_limits<double>::infinity();
            for (int64_t i = i0; i < i1; ++i)
              for (int64_t j = j0; j < j1; ++j) {
                const double v = plane[i * g.w + j];
                if (v > best || std::isnan(v)) {  // ATen's order: a NaN wins and stays
                  best = v;
                  best_index = i * g.w + j;
                }
              }
            const int64_t k = (pl * g.oh + oi) * g.ow + oj;
            y[k] = best;
            where[k] = best_index;
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
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    const View indices = input_view(indices_h, "indices");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
    const PoolGeom g = planes_of(input);
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    SIMK_CHECK(go.ndim == input.ndim && same_shape(go, indices),
               "grad_output %s and indices %s must have one shape of input's rank",
               go.shape_str().c_str(), indices.shape_str().c_str());
    const int64_t per_plane = go.ndim >= 2 ? go.sizes[go.ndim - 2] * go.sizes[go.ndim - 1] : 0;
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<int64_t> where = packed<int64_t>(indices);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      for (int64_t pl = 0; pl < g.planes; ++pl)
        for (int64_t q = 0; q < per_plane; ++q) {
          const int64_t k = pl * per_plane + q;
          const int64_t idx = where[k];
          if (idx < 0 || idx >= g.h * g.w)
            throw std::runtime_error("adaptive_max_pool2d_backward: index " + std::to_string(idx) +
                                     " is out of the input plane");
          dx[pl * g.h * g.w + idx] += dy[k];
        }
      unpack(gi, dx);
    });
  });
}
