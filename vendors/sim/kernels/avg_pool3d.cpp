// The `avg_pool3d` family: 3-D average pooling (padding counted or not, optional divisor), and its
// backward. DIOPI: diopiAvgPool3d, diopiAvgPool3dBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <vector>

#include "common/elementwise.h"
#include "common/pool3d.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// One output position's clipped window [lo, hi) per dim and its divisor, as ATen computes them.
struct AvgWindow3d {
  int64_t lo[3], hi[3];
  double divisor;
  bool empty() const { return lo[0] >= hi[0] || lo[1] >= hi[1] || lo[2] >= hi[2]; }
};

AvgWindow3d avg_window(const Pool3dGeom& g, const int64_t* o, bool count_include_pad,
                       bool has_divisor, int64_t divisor) {
  AvgWindow3d w;
  int64_t pool_size = 1, inside = 1;
  for (int i = 0; i < 3; ++i) {
    w.lo[i] = o[i] * g.s[i] - g.p[i];
    w.hi[i] = std::min(w.lo[i] + g.k[i], g.in[i] + g.p[i]);
    pool_size *= w.hi[i] - w.lo[i];
    w.lo[i] = std::max<int64_t>(w.lo[i], 0);
    w.hi[i] = std::min(w.hi[i], g.in[i]);
    inside *= w.hi[i] - w.lo[i];
  }
  w.divisor = static_cast<double>(has_divisor ? divisor : count_include_pad ? pool_size : inside);
  return w;
}

// Calls f(window, output element k) for every output position of every plane.
template <class F>
void each_window(const Pool3dGeom& g, bool count_include_pad, bool has_divisor, int64_t divisor,
                 F f) {
  int64_t k = 0;
  for (int64_t pl = 0; pl < g.planes; ++pl)
    for (int64_t a = 0; a < g.out[0]; ++a)
      for (int64_t b = 0; b < g.out[1]; ++b)
        for (int64_t c = 0; c < g.out[2]; ++c, ++k) {
          const int64_t o[3] = {a, b, c};
          f(pl, avg_window(g, o, count_include_pad, has_divisor, divisor), k);
        }
}

}  // namespace

diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                            bool count_include_pad, const int64_t* divisor_override) {
  SIMK_KERNEL(diopiAvgPool3d);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    const Pool3dGeom g =
        pool3d_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0}, ceil_mode);
    SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0, "divisor must be not zero");
    check_pooled3d(out, input, g, "out");
    const bool has_divisor = divisor_override != nullptr;
    const int64_t divisor = has_divisor ? *divisor_override : 0;
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.out_plane()));
      each_window(g, count_include_pad, has_divisor, divisor,
                  [&](int64_t pl, const AvgWindow3d& w, int64_t k) {
                    const double* plane = x.data() + pl * g.in_plane();
                    double sum = 0;
                    for (int64_t i = w.lo[0]; i < w.hi[0]; ++i)
                      for (int64_t j = w.lo[1]; j < w.hi[1]; ++j)
                        for (int64_t l = w.lo[2]; l < w.hi[2]; ++l)
                          sum += plane[(i * g.in[1] + j) * g.in[2] + l];
                    y[k] = w.empty() ? 0.0 : sum / w.divisor;
                  });
      unpack(out, y);
    });
  });
}

diopiError_t diopiAvgPool3dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                    diopiConstTensorHandle_t grad_output_h,
                                    diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                                    diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
  SIMK_KERNEL(diopiAvgPool3dBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    const Pool3dGeom g =
        pool3d_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0}, ceil_mode);
    SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0, "divisor must be not zero");
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    check_pooled3d(go, input, g, "grad_output");
    const bool has_divisor = divisor_override != nullptr;
    const int64_t divisor = has_divisor ? *divisor_override : 0;
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      each_window(g, count_include_pad, has_divisor, divisor,
                  [&](int64_t pl, const AvgWindow3d& w, int64_t k) {
                    double* plane = dx.data() + pl * g.in_plane();
                    for (int64_t i = w.lo[0]; i < w.hi[0]; ++i)
                      for (int64_t j = w.lo[1]; j < w.hi[1]; ++j)
                        for (int64_t l = w.lo[2]; l < w.hi[2]; ++l)
                          plane[(i * g.in[1] + j) * g.in[2] + l] += dy[k] / w.divisor;
                  });
      unpack(gi, dx);
    });
  });
}
