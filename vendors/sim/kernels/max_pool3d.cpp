// The `max_pool3d` family: 3-D max pooling with the flat (D * H * W) index of each window's
// maximum, and its backward. DIOPI: diopiMaxPool3dWithIndices, diopiMaxPool3dBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/pool3d.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                       diopiTensorHandle_t indices_h,
                                       diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                                       diopiSize_t stride, diopiSize_t padding,
                                       diopiSize_t dilation, bool ceil_mode) {
  SIMK_KERNEL(diopiMaxPool3dWithIndices);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View indices = output_view(indices_h, "indices");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
    const Pool3dGeom g = pool3d_geometry(input, kernel_size, stride, padding, dilation, ceil_mode);
    check_pooled3d(out, input, g, "out");
    check_pooled3d(indices, input, g, "indices");
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.out_plane()));
      std::vector<int64_t> where(y.size());
      int64_t k = 0;
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        const double* plane = x.data() + pl * g.in_plane();
        for (int64_t a = 0; a < g.out[0]; ++a)
          for (int64_t b = 0; b < g.out[1]; ++b)
            for (int64_t c = 0; c < g.out[2]; ++c, ++k) {
              const int64_t o[3] = {a, b, c};
              int64_t lo[3], hi[3];
              for (int i = 0; i < 3; ++i) {
                lo[i] = o[i] * g.s[i] - g.p[i];
                hi[i] = std::min(lo[i] + (g.k[i] - 1) * g.d[i] + 1, g.in[i]);
                while (lo[i] < 0) lo[i] += g.d[i];
              }
              int64_t best_index = (lo[0] * g.in[1] + lo[1]) * g.in[2] + lo[2];
              double best = -std::numeric_limits<double>::infinity();
              for (int64_t i = lo[0]; i < hi[0]; i += g.d[0])
                for (int64_t j = lo[1]; j < hi[1]; j += g.d[1])
                  for (int64_t l = lo[2]; l < hi[2]; l += g.d[2]) {
                    const int64_t at = (i * g.in[1] + j) * g.in[2] + l;
                    if (plane[at] > best || std::isnan(plane[at])) {
                      best = plane[at];
                      best_index = at;
                    }
                  }
              y[k] = best;
              where[k] = best_index;
            }
      }
      unpack(out, y);
      unpack(indices, where);
    });
  });
}

diopiError_t diopiMaxPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                    diopiConstTensorHandle_t grad_output_h,
                                    diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                                    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation,
                                    bool ceil_mode, diopiConstTensorHandle_t indices_h) {
  SIMK_KERNEL(diopiMaxPool3dBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    const View indices = input_view(indices_h, "indices");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
    const Pool3dGeom g = pool3d_geometry(input, kernel_size, stride, padding, dilation, ceil_mode);
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    check_pooled3d(go, input, g, "grad_output");
    check_pooled3d(indices, input, g, "indices");
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<int64_t> where = packed<int64_t>(indices);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      for (int64_t pl = 0; pl < g.planes; ++pl)
        for (int64_t q = 0; q < g.out_plane(); ++q) {
          const int64_t k = pl * g.out_plane() + q;
          const int64_t idx = where[k];
          if (idx < 0 || idx >= g.in_plane())
            throw std::runtime_error("max_pool3d_backward: index " + std::to_string(idx) +
                                     " is out of the input volume");
          dx[pl * g.in_plane() + idx] += dy[k];
        }
      unpack(gi, dx);
    });
  });
}
