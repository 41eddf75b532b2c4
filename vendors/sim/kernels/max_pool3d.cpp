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
    const MaxPoolViews v = max_pool_views(out_h, indices_h, input_h);
    const View &out = v.out, &indices = v.indices, &input = v.input;
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
              ArgMax m((lo[0] * g.in[1] + lo[1]) * g.in[2] + lo[2]);
              for (int64_t i = lo[0]; i < hi[0]; i += g.d[0])
                for (int64_t j = lo[1]; j < hi[1]; j += g.d[1])
                  for (int64_t l = lo[2]; l < hi[2]; l += g.d[2]) {
                    const int64_t at = (i * g.in[1] + j) * g.in[2] + l;
                    m.offer(plane[at], at);
                  }
              y[k] = m.best;
              where[k] = m.index;
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
    const MaxPoolGradViews v = max_pool_grad_views(grad_input_h, grad_output_h, input_h, indices_h);
    const View &gi = v.grad_input, &go = v.grad_output, &input = v.input, &indices = v.indices;
    const Pool3dGeom g = pool3d_geometry(input, kernel_size, stride, padding, dilation, ceil_mode);
    check_pooled3d(go, input, g, "grad_output");
    check_pooled3d(indices, input, g, "indices");
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      const std::vector<int64_t> where = packed<int64_t>(indices);
      std::vector<double> dx = scatter_to_indices(dy, where, g.planes, g.out_plane(), g.in_plane(),
                                                  "max_pool3d_backward");
      unpack(gi, dx);
    });
  });
}
