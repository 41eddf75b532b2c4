// The `avg_pool2d` family: 2-D average pooling (padding counted or not, optional divisor), and
// its backward. DIOPI: diopiAvgPool2d, diopiAvgPool2dBackward.
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

namespace {

struct AvgWindow {
  int64_t i0, i1, j0, j1;
  double divisor;
};

AvgWindow avg_window(const PoolGeom& g, int64_t oi, int64_t oj, bool count_include_pad,
                     const int64_t* divisor_override) {
  int64_t i0 = oi * g.sh - g.ph, j0 = oj * g.sw - g.pw;
  int64_t i1 = std::min(i0 + g.kh, g.h + g.ph), j1 = std::min(j0 + g.kw, g.w + g.pw);
  const int64_t pool_size = (i1 - i0) * (j1 - j0);
  i0 = std::max<int64_t>(i0, 0), j0 = std::max<int64_t>(j0, 0);
  i1 = std::min(i1, g.h), j1 = std::min(j1, g.w);
  double divisor;
  if (divisor_override != nullptr) {
    divisor = static_cast<double>(*divisor_override);
  } else if (count_include_pad) {
    divisor = static_cast<double>(pool_size);
  } else {
    divisor = static_cast<double>((i1 - i0) * (j1 - j0));
  }
  return AvgWindow{i0, i1, j0, j1, divisor};
}

}  // namespace

diopiError_t diopiAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                            diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                            bool count_include_pad, const int64_t* divisor_override) {
  SIMK_KERNEL(diopiAvgPool2d);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    const PoolGeom g =
        pool_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0}, ceil_mode);
    SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0, "divisor must be not zero");
    check_pooled(out, input, g.oh, g.ow, "out");
    const bool has_divisor = divisor_override != nullptr;
    const int64_t divisor = has_divisor ? *divisor_override : 0;
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.oh * g.ow));
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        const double* plane = x.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi)
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const AvgWindow win =
                avg_window(g, oi, oj, count_include_pad, has_divisor ? &divisor : nullptr);
            double sum = 0;
            for (int64_t i = win.i0; i < win.i1; ++i)
              for (int64_t j = win.j0; j < win.j1; ++j) sum += plane[i * g.w + j];
            const bool empty = win.i0 >= win.i1 || win.j0 >= win.j1;
            y[(pl * g.oh + oi) * g.ow + oj] = empty ? 0.0 : sum / win.divisor;
          }
      }
      unpack(out, y);
    });
  });
}

diopiError_t diopiAvgPool2dBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                    diopiConstTensorHandle_t grad_output_h,
                                    diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                                    diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                    bool count_include_pad, const int64_t* divisor_override) {
  SIMK_KERNEL(diopiAvgPool2dBackward);
  return guarded(kernel.name, [&] {
    const View gi = output_view(grad_input_h, "grad_input");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    check_dtype(gi, kFloating, "grad_input");
    check_dtype(go, kFloating, "grad_output");
    const PoolGeom g =
        pool_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0}, ceil_mode);
    SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0, "divisor must be not zero");
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s", gi.shape_str().c_str(),
               input.shape_str().c_str());
    check_pooled(go, input, g.oh, g.ow, "grad_output");
    const bool has_divisor = divisor_override != nullptr;
    const int64_t divisor = has_divisor ? *divisor_override : 0;
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        double* plane = dx.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi)
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const AvgWindow win =
                avg_window(g, oi, oj, count_include_pad, has_divisor ? &divisor : nullptr);
            const double share = dy[(pl * g.oh + oi) * g.ow + oj] / win.divisor;
            for (int64_t i = win.i0; i < win.i1; ++i)
              for (int64_t j = win.j0; j < win.j1; ++j) plane[i * g.w + j] += share;
          }
      }
      unpack(gi, dx);
    });
  });
}
