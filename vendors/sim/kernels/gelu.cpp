// The `gelu` family: Gaussian error linear unit, exact ("none") or tanh approximation ("tanh").
// DIOPI: diopiGelu, diopiGeluBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstring>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// Parses gelu's `approximate` argument: false for "none" (or null), true for "tanh".
bool gelu_uses_tanh(const char* approximate) {
  if (approximate == nullptr || std::strcmp(approximate, "none") == 0) return false;
  if (std::strcmp(approximate, "tanh") == 0) return true;
  failf(diopiErrorOccurred, "approximate must be \"none\" or \"tanh\", got \"%s\"", approximate);
}

constexpr double kSqrt2OverPi = 0.7978845608028654;  // sqrt(2 / pi)

constexpr double kInvSqrt2Pi = 0.3989422804014327;  // 1 / sqrt(2 * pi)

constexpr double kInvSqrt2 = 0.7071067811865476;  // 1 / sqrt(2)

constexpr double kGeluKappa = 0.044715;

template <class V>
V gelu_tanh(V x) {
  const V inner = V(kSqrt2OverPi) * (x + V(kGeluKappa) * (x * x * x));
  return V(0.5) * x * (V(1) + vmath::tanh(inner));
}

template <class V>
V gelu_erf(V x) {
  return x * V(0.5) * (V(1) + vmath::erf(x * V(kInvSqrt2)));
}

template <class V>
V gelu_tanh_backward(V g, V x) {
  const V x_sq = x * x;
  const V inner = V(kSqrt2OverPi) * (x + V(kGeluKappa) * (x * x_sq));
  const V tanh_inner = vmath::tanh(inner);
  const V left = V(0.5) * x;
  const V left_derivative = V(0.5) * (V(1) + tanh_inner);
  const V tanh_derivative = V(1) - tanh_inner * tanh_inner;
  const V inner_derivative = V(kSqrt2OverPi) * (V(1) + V(3) * V(kGeluKappa) * x_sq);
  return g * (left_derivative + left * tanh_derivative * inner_derivative);
}

template <class V>
V gelu_erf_backward(V g, V x) {
  const V cdf = V(0.5) * (V(1) + vmath::erf(x * V(kInvSqrt2)));
  const V pdf = vmath::exp(V(-0.5) * x * x) * V(kInvSqrt2Pi);
  return g * (cdf + x * pdf);
}

}  // namespace

diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, const char* approximate) {
  SIMK_KERNEL(diopiGelu);
  return guarded(kernel.name, [&] {
    const bool tanh_approx = gelu_uses_tanh(approximate);
    elementwise<kFloating>(
        kernel, ctx, out,
        [tanh_approx](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          // In float, rounded once: ATen 1.13 computed the bfloat16 tanh form in bfloat16 step by
          // step, 2.x computes it in float, and the float64 referee prefers the latter.
          using V = A;
          return [tanh_approx](A x) -> A { return tanh_approx ? gelu_tanh(V(x)) : gelu_erf(x); };
        },
        In{input, "input"});
  });
}

diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                               diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                               const char* approximate) {
  SIMK_KERNEL(diopiGeluBackward);
  return guarded(kernel.name, [&] {
    const bool tanh_approx = gelu_uses_tanh(approximate);
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [tanh_approx](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          // In float, rounded once: ATen 1.13 computed the bfloat16 tanh form in bfloat16 step by
          // step, 2.x computes it in float, and the float64 referee prefers the latter.
          using V = A;
          return [tanh_approx](A g, A x) -> A {
            return tanh_approx ? gelu_tanh_backward(V(g), V(x)) : gelu_erf_backward(g, x);
          };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
