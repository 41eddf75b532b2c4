// 2-D pooling geometry over the last two dims of [N, C, H, W] or [C, H, W] inputs, shared by
// max_pool2d, avg_pool2d and adaptive_avg_pool2d: ATen 1.13's window arithmetic (ceil_mode,
// padding, dilation).
#ifndef SIM_KERNELS_COMMON_POOL_H_
#define SIM_KERNELS_COMMON_POOL_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "elementwise.h"
#include "shape_ops.h"

namespace simk {

struct PoolGeom {
  int64_t planes = 1, h = 0, w = 0, oh = 0, ow = 0;
  int64_t kh = 1, kw = 1, sh = 1, sw = 1, ph = 0, pw = 0, dh = 1, dw = 1;
};

inline int64_t at_or_last(diopiSize_t v, int i, int64_t fallback) {
  if (v.len == 0 || v.data == nullptr) return fallback;
  return v.len > i ? v.data[i] : v.data[v.len - 1];
}

inline int64_t pooled_size(int64_t in, int64_t k, int64_t pad, int64_t st, int64_t dil,
                           bool ceil_mode) {
  SIMK_CHECK(k > 0 && st > 0 && dil > 0, "kernel size, stride and dilation must be positive");
  SIMK_CHECK(pad >= 0 && pad <= k / 2,
             "pad should be at most half of the kernel size, got pad "
             "%lld for kernel %lld",
             static_cast<long long>(pad), static_cast<long long>(k));
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? st - 1 : 0);
  int64_t out = (num >= 0 ? num / st : -((-num + st - 1) / st)) + 1;
  if (ceil_mode && (out - 1) * st >= in + pad) --out;
  SIMK_CHECK(out > 0, "the pooled size is too small for input size %lld",
             static_cast<long long>(in));
  return out;
}

// Planes (N * C) and H, W of a 3-D or 4-D input.
inline PoolGeom planes_of(const View& input) {
  SIMK_CHECK(input.ndim == 3 || input.ndim == 4, "input must be 3-D or 4-D, got %s",
             input.shape_str().c_str());
  PoolGeom g;
  for (int d = 0; d < input.ndim - 2; ++d) g.planes *= input.sizes[d];
  g.h = input.sizes[input.ndim - 2];
  g.w = input.sizes[input.ndim - 1];
  return g;
}

inline PoolGeom pool_geometry(const View& input, diopiSize_t kernel_size, diopiSize_t stride,
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

// Adaptive pooling's window along one dim: output position a of b over an input of size c
// covers [adaptive_start, adaptive_end) (ATen's split).
inline int64_t adaptive_start(int64_t a, int64_t b, int64_t c) { return (a * c) / b; }
inline int64_t adaptive_end(int64_t a, int64_t b, int64_t c) { return ((a + 1) * c + b - 1) / b; }

// Checks that `out` is `input` with H, W replaced by oh, ow.
inline void check_pooled(const View& out, const View& input, int64_t oh, int64_t ow,
                         const char* what) {
  View expected = input;
  expected.sizes[input.ndim - 2] = oh;
  expected.sizes[input.ndim - 1] = ow;
  SIMK_CHECK(same_shape(out, expected), "%s has shape %s, expected %s", what,
             out.shape_str().c_str(), expected.shape_str().c_str());
}

// Running maximum of a window with its index, as ATen's max pooling keeps it: the first of equal
// maxima, and a NaN wins and stays.
struct ArgMax {
  double best = -std::numeric_limits<double>::infinity();
  int64_t index;
  explicit ArgMax(int64_t first) : index(first) {}
  void offer(double v, int64_t at) {
    if (v > best || std::isnan(v)) {
      best = v;
      index = at;
    }
  }
};

// The tensors of a max pooling (with indices), dtypes checked.
struct MaxPoolViews {
  View out, indices, input;
};

inline MaxPoolViews max_pool_views(diopiTensorHandle_t out_h, diopiTensorHandle_t indices_h,
                                   diopiConstTensorHandle_t input_h) {
  MaxPoolViews v{output_view(out_h, "out"), output_view(indices_h, "indices"),
                 input_view(input_h, "input")};
  check_dtype(v.out, kFloating, "out");
  check_dtype(v.input, kFloating, "input");
  check_dtype(v.indices, dtype_bit(diopi_dtype_int64), "indices");
  return v;
}

// The tensors of a max pooling's backward, dtypes checked and grad_input shaped like input.
struct MaxPoolGradViews {
  View grad_input, grad_output, input, indices;
};

inline MaxPoolGradViews max_pool_grad_views(diopiTensorHandle_t grad_input_h,
                                            diopiConstTensorHandle_t grad_output_h,
                                            diopiConstTensorHandle_t input_h,
                                            diopiConstTensorHandle_t indices_h) {
  MaxPoolGradViews v{output_view(grad_input_h, "grad_input"),
                     input_view(grad_output_h, "grad_output"), input_view(input_h, "input"),
                     input_view(indices_h, "indices")};
  check_dtype(v.grad_input, kFloating, "grad_input");
  check_dtype(v.grad_output, kFloating, "grad_output");
  check_dtype(v.indices, dtype_bit(diopi_dtype_int64), "indices");
  SIMK_CHECK(same_shape(v.grad_input, v.input), "grad_input has shape %s, input %s",
             v.grad_input.shape_str().c_str(), v.input.shape_str().c_str());
  return v;
}

// Adaptive pooling of a 3-D or 4-D input to output_size [oh, ow]: planes, H, W and the output
// size, which `out` must have.
inline PoolGeom adaptive_geometry(const View& out, const View& input, diopiSize_t output_size) {
  PoolGeom g = planes_of(input);
  SIMK_CHECK(output_size.len == 2 && output_size.data[0] >= 0 && output_size.data[1] >= 0,
             "output_size must be two non-negative sizes");
  g.oh = output_size.data[0], g.ow = output_size.data[1];
  check_pooled(out, input, g.oh, g.ow, "out");
  return g;
}

// Max pooling's gradient: each output gradient dy[k] added at its input position where[k], a
// flat index within its plane (in_plane elements; out_plane outputs per plane). Runs on the
// stream; throws for an index outside the plane.
inline std::vector<double> scatter_to_indices(const std::vector<double>& dy,
                                              const std::vector<int64_t>& where, int64_t planes,
                                              int64_t out_plane, int64_t in_plane, const char* op) {
  std::vector<double> dx(static_cast<size_t>(planes * in_plane), 0.0);
  for (int64_t pl = 0; pl < planes; ++pl)
    for (int64_t q = 0; q < out_plane; ++q) {
      const int64_t k = pl * out_plane + q;
      const int64_t idx = where[k];
      if (idx < 0 || idx >= in_plane)
        throw std::runtime_error(std::string(op) + ": index " + std::to_string(idx) +
                                 " is out of the input plane");
      dx[pl * in_plane + idx] += dy[k];
    }
  return dx;
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_POOL_H_
