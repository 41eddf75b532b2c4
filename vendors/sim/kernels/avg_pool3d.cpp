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
  // Calls f(flat index in the plane) for every input element of the window.
  template <class F>
  void each_element(const Pool3dGeom& g, F f) const {
    for (int64_t i = lo[0]; i < hi[0]; ++i)
      for (int64_t j = lo[1]; j < hi[1]; ++j)
        for (int64_t l = lo[2]; l < hi[2]; ++l) f((i * g.in[1] + j) * g.in[2] + l);
  }
};

// The arguments both directions share, checked: the geometry and the divisor rule.
struct AvgPool3d {
  Pool3dGeom g;
  bool count_include_pad = true, has_divisor = false;
  int64_t divisor = 0;

  AvgWindow3d window(const int64_t* o) const {
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

  // Calls f(plane, window, output element k) for every output position of every plane.
  template <class F>
  void each_window(F f) const {
    int64_t k = 0;
    for (int64_t pl = 0; pl < g.planes; ++pl)
      for (int64_t a = 0; a < g.out[0]; ++a)
        for (int64_t b = 0; b < g.out[1]; ++b)
          for (int64_t c = 0; c < g.out[2]; ++c, ++k) {
            const int64_t o[3] = {a, b, c};
            f(pl, window(o), k);
          }
  }
};

// `pooled` is the output (forward) or grad_output (backward): input's shape pooled.
AvgPool3d avg_pool3d_args(const View& input, const View& pooled, const char* what,
                          diopiSize_t kernel_size, diopiSize_t stride, diopiSize_t padding,
                          bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
  check_dtype(input, kFloating, "input");
  check_dtype(pooled, kFloating, what);
  AvgPool3d a;
  a.g = pool3d_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0}, ceil_mode);
  SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0, "divisor must be not zero");
  check_pooled3d(pooled, input, a.g, what);
  a.count_include_pad = count_include_pad;
  a.has_divisor = divisor_override != nullptr;
  a.divisor = a.has_divisor ? *divisor_override : 0;
  return a;
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
    const AvgPool3d a = avg_pool3d_args(input, out, "out", kernel_size, stride, padding, ceil_mode,
                                        count_include_pad, divisor_override);
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(a.g.planes * a.g.out_plane()));
      a.each_window([&](int64_t pl, const AvgWindow3d& w, int64_t k) {
        const double* plane = x.data() + pl * a.g.in_plane();
        double sum = 0;
        w.each_element(a.g, [&](int64_t at) { sum += plane[at]; });
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
    const AvgPool3d a = avg_pool3d_args(input, go, "grad_output", kernel_size, stride, padding,
                                        ceil_mode, count_include_pad, divisor_override);
    check_dtype(gi, kFloating, "grad_input");
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      a.each_window([&](int64_t pl, const AvgWindow3d& w, int64_t k) {
        double* plane = dx.data() + pl * a.g.in_plane();
        w.each_element(a.g, [&](int64_t at) { plane[at] += dy[k] / w.divisor; });
      });
      unpack(gi, dx);
    });
  });
}
