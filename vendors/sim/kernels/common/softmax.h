// softmax / log_softmax and their backward along a dim, computed in double over contiguous
// copies and written back in out's dtype and layout.
#ifndef SIM_KERNELS_COMMON_SOFTMAX_H_
#define SIM_KERNELS_COMMON_SOFTMAX_H_

#include <cmath>
#include <limits>

#include "elementwise.h"
#include "shape_ops.h"

namespace simk {

// For every line of `out` along `dim`: f(ins, out, len, stride) with pointers to the line's
// first element in contiguous double copies of the inputs and of the result. Runs on the stream.
template <int N, class F>
void along_dim(const View& out, const View (&ins)[N], int dim, F f) {
  Buffer packed[N];
  const double* in_data[N];
  for (int k = 0; k < N; ++k) {
    packed[k] = Buffer(diopi_dtype_float64, ins[k].sizes, ins[k].ndim);
    cast_copy(packed[k].view(), ins[k]);
    in_data[k] = reinterpret_cast<const double*>(packed[k].view().data);
  }
  Buffer result(diopi_dtype_float64, out.sizes, out.ndim);
  double* res = result.view().ptr<double>();
  int64_t outer = 1, len = 1, inner = 1;
  for (int d = 0; d < out.ndim; ++d) {
    if (d < dim) outer *= out.sizes[d];
    if (d == dim) len = out.sizes[d];
    if (d > dim) inner *= out.sizes[d];
  }
  const double* line[N];
  for (int64_t o = 0; o < outer; ++o) {
    for (int64_t i = 0; i < inner; ++i) {
      const int64_t base = o * len * inner + i;
      for (int k = 0; k < N; ++k) line[k] = in_data[k] + base;
      f(line, res + base, len, inner);
    }
  }
  cast_copy(out, result.view());
}

// Line functors: ins/out point at element 0 of a line, elements are `s` apart.
struct SoftmaxLine {
  bool log;
  void operator()(const double* const* in, double* out, int64_t n, int64_t s) const {
    const double* x = in[0];
    double mx = -std::numeric_limits<double>::infinity();
    for (int64_t j = 0; j < n; ++j) mx = std::isnan(x[j * s]) || x[j * s] > mx ? x[j * s] : mx;
    if (std::isinf(mx) && mx < 0) mx = 0;  // all -inf: exp(-inf - 0) = 0
    double sum = 0;
    for (int64_t j = 0; j < n; ++j) sum += std::exp(x[j * s] - mx);
    if (log) {
      const double lse = std::log(sum);
      for (int64_t j = 0; j < n; ++j) out[j * s] = x[j * s] - mx - lse;
    } else {
      for (int64_t j = 0; j < n; ++j) out[j * s] = std::exp(x[j * s] - mx) / sum;
    }
  }
};

struct SoftmaxBackwardLine {  // ins: grad_output, output
  bool log;
  void operator()(const double* const* in, double* out, int64_t n, int64_t s) const {
    const double* g = in[0];
    const double* y = in[1];
    double dot = 0;
    if (log) {
      // grad_input = g - exp(y) * sum(g)
      for (int64_t j = 0; j < n; ++j) dot += g[j * s];
      for (int64_t j = 0; j < n; ++j) out[j * s] = g[j * s] - std::exp(y[j * s]) * dot;
    } else {
      // grad_input = y * (g - sum(g * y))
      for (int64_t j = 0; j < n; ++j) dot += g[j * s] * y[j * s];
      for (int64_t j = 0; j < n; ++j) out[j * s] = y[j * s] * (g[j * s] - dot);
    }
  }
};

inline void softmax_forward(const Kernel& kernel, diopiContextHandle_t ctx,
                            diopiTensorHandle_t out_h, diopiConstTensorHandle_t input_h,
                            int64_t dim_arg, bool log) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(out, kFloating, "out");
  check_dtype(input, kFloating, "input");
  SIMK_CHECK(same_shape(out, input), "out has shape %s but input has shape %s",
             out.shape_str().c_str(), input.shape_str().c_str());
  const int dim = wrap_dim(dim_arg, input.ndim);
  launch(kernel, ctx, out, [=] {
    const View ins[1] = {input};
    along_dim<1>(out, ins, dim, SoftmaxLine{log});
  });
}

inline void softmax_backward(const Kernel& kernel, diopiContextHandle_t ctx,
                             diopiTensorHandle_t grad_input_h,
                             diopiConstTensorHandle_t grad_output_h,
                             diopiConstTensorHandle_t output_h, int64_t dim_arg, bool log) {
  const View gi = output_view(grad_input_h, "grad_input");
  const View go = input_view(grad_output_h, "grad_output");
  const View y = input_view(output_h, "output");
  check_dtype(gi, kFloating, "grad_input");
  check_dtype(go, kFloating, "grad_output");
  check_dtype(y, kFloating, "output");
  SIMK_CHECK(same_shape(gi, go) && same_shape(gi, y),
             "shapes differ: grad_input %s, grad_output %s, output %s", gi.shape_str().c_str(),
             go.shape_str().c_str(), y.shape_str().c_str());
  const int dim = wrap_dim(dim_arg, gi.ndim);
  launch(kernel, ctx, gi, [=] {
    const View ins[2] = {go, y};
    along_dim<2>(gi, ins, dim, SoftmaxBackwardLine{log});
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_SOFTMAX_H_
