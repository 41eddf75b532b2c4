// 2-D pooling over the last two dims of [N, C, H, W] or [C, H, W] inputs: max pooling with
// indices (+ backward), average pooling (+ backward), adaptive average pooling (+ backward).
// Window arithmetic follows ATen 1.13's CPU kernels (ceil_mode, padding, dilation, divisor
// rules, which NaN a max window reports); values are computed in double over contiguous copies.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

struct PoolGeom {
  int64_t planes = 1, h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};

int64_t at_or_last(diopiSize_t v, int i, int64_t fallback) {
  if (v.len == 0 || v.data == nullptr) return fallback;
  return v.len > i ? v.data[i] : v.data[v.len - 1];
}

int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t st, int64_t dil, bool ceil_mode) {
  SIMK_CHECK(k > 0 && st > 0 && dil > 0, "kernel size, stride and dilation must be positive");
  SIMK_CHECK(pad >= 0 && pad <= k / 2, "pad should be at most half of the kernel size, got pad "
             "%lld for kernel %lld", static_cast<long long>(pad), static_cast<long long>(k));
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? st - 1 : 0);
  int64_t out = (num >= 0 ? num / st : -((-num + st - 1) / st)) + 1;
  if (ceil_mode && (out - 1) * st >= in + pad) --out;
  SIMK_CHECK(out > 0, "the pooled size is too small for input size %lld",
             static_cast<long long>(in));
  return out;
}

// Planes (N * C) and H, W of a 3-D or 4-D input.
PoolGeom planes_of(const View& input) {
  SIMK_CHECK(input.ndim == 3 || input.ndim == 4, "input must be 3-D or 4-D, got %s",
             input.shape_str().c_str());
  PoolGeom g;
  for (int d = 0; d < input.ndim - 2; ++d) g.planes *= input.sizes[d];
  g.h = input.sizes[input.ndim - 2];
  g.w = input.sizes[input.ndim - 1];
  return g;
}

PoolGeom pool_geometry(const View& input, diopiSize_t kernel_size, diopiSize_t stride,
                       diopiSize_t padding, diopiSize_t dilation, bool ceil_mode) {
  PoolGeom g = planes_of(input);
  SIMK_CHECK(kernel_size.len == 1 || kernel_size.len == 2, "kernel_size must have 1 or 2 values");
  g.kh = at_or_last(kernel_size, 0, 1), g.kw = at_or_last(kernel_size, 1, 1);
  g.sh = at_or_last(stride, 0, g.kh), g.sw = at_or_last(stride, 1, g.kw);
  g.ph = at_or_last(padding, 0, 0), g.pw = at_or_last(padding, 1, 0);
  g.dh = at_or_last(dilation, 0, 1), g.dw = at_or_last(dilation, 1, 1);
  g.oh = pooled_size(g.h, g.kh, g.ph, g.sh, g.dh, ceil_mode);
  g.ow = pooled_size(g.w, g.kw, g.pw, g.sw, g.dw, ceil_mode);
  return g;
}

// Checks that `out` is `input` with H, W replaced by oh, ow.
void check_pooled(const View& out, const View& input, int64_t oh, int64_t ow, const char* what) {
  View expected = input;
  expected.sizes[input.ndim - 2] = oh;
  expected.sizes[input.ndim - 1] = ow;
  SIMK_CHECK(same_shape(out, expected), "%s has shape %s, expected %s", what,
             out.shape_str().c_str(), expected.shape_str().c_str());
}

// ---------------------------------------------------------------- average windows

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

// ---------------------------------------------------------------- max pooling

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
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s",
               gi.shape_str().c_str(), input.shape_str().c_str());
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

// ---------------------------------------------------------------- average pooling

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
    const PoolGeom g = pool_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0},
                                     ceil_mode);
    SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0,
               "divisor must be not zero");
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
    const PoolGeom g = pool_geometry(input, kernel_size, stride, padding, diopiSize_t{nullptr, 0},
                                     ceil_mode);
    SIMK_CHECK(divisor_override == nullptr || *divisor_override != 0,
               "divisor must be not zero");
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s",
               gi.shape_str().c_str(), input.shape_str().c_str());
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

// ---------------------------------------------------------------- adaptive average pooling

namespace {

inline int64_t start_index(int64_t a, int64_t b, int64_t c) { return (a * c) / b; }
inline int64_t end_index(int64_t a, int64_t b, int64_t c) { return ((a + 1) * c + b - 1) / b; }

}  // namespace

diopiError_t diopiAdaptiveAvgPool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                    diopiConstTensorHandle_t input_h, diopiSize_t output_size) {
  SIMK_KERNEL(diopiAdaptiveAvgPool2d);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    PoolGeom g = planes_of(input);
    SIMK_CHECK(output_size.len == 2 && output_size.data[0] >= 0 && output_size.data[1] >= 0,
               "output_size must be two non-negative sizes");
    g.oh = output_size.data[0], g.ow = output_size.data[1];
    check_pooled(out, input, g.oh, g.ow, "out");
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(g.planes * g.oh * g.ow));
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        const double* plane = x.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i0 = start_index(oi, g.oh, g.h), i1 = end_index(oi, g.oh, g.h);
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j0 = start_index(oj, g.ow, g.w), j1 = end_index(oj, g.ow, g.w);
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
    SIMK_CHECK(same_shape(gi, input), "grad_input has shape %s, input %s",
               gi.shape_str().c_str(), input.shape_str().c_str());
    launch(kernel, ctx, gi, [=] {
      const std::vector<double> dy = packed<double>(go);
      std::vector<double> dx(static_cast<size_t>(gi.numel()), 0.0);
      for (int64_t pl = 0; pl < g.planes; ++pl) {
        double* plane = dx.data() + pl * g.h * g.w;
        for (int64_t oi = 0; oi < g.oh; ++oi) {
          const int64_t i0 = start_index(oi, g.oh, g.h), i1 = end_index(oi, g.oh, g.h);
          for (int64_t oj = 0; oj < g.ow; ++oj) {
            const int64_t j0 = start_index(oj, g.ow, g.w), j1 = end_index(oj, g.ow, g.w);
            const double share = dy[(pl * g.oh + oi) * g.ow + oj] /
                                 static_cast<double>((i1 - i0) * (j1 - j0));
            for (int64_t i = i0; i < i1; ++i)
              for (int64_t j = j0; j < j1; ++j) plane[i * g.w + j] += share;
          }
        }
      }
      unpack(gi, dx);
    });
  });
}
