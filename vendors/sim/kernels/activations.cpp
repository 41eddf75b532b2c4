// Activations and their backward: sigmoid, tanh, relu, threshold, silu, gelu. Formulas follow
// ATen's CPU kernels; 16-bit floats are computed in float.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstring>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// Formulas over a value type V (see common/arith.h); ATen 1.13 computes some of them with
// 16-bit operations, which the per-op policies below reproduce.
template <class V>
V sigmoid(V x) {
  return V(1) / (V(1) + vmath::exp(-x));
}

// Parses gelu's `approximate` argument: false for "none" (or null), true for "tanh".
bool gelu_uses_tanh(const char* approximate) {
  if (approximate == nullptr || std::strcmp(approximate, "none") == 0) return false;
  if (std::strcmp(approximate, "tanh") == 0) return true;
  failf(diopiErrorOccurred, "approximate must be \"none\" or \"tanh\", got \"%s\"", approximate);
}

constexpr double kSqrt2OverPi = 0.7978845608028654;  // sqrt(2 / pi)
constexpr double kInvSqrt2Pi = 0.3989422804014327;   // 1 / sqrt(2 * pi)
constexpr double kInvSqrt2 = 0.7071067811865476;     // 1 / sqrt(2)
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

// Element functors over storage type T: load as A, compute in V = Arith<T, Policy>.
#define SIMK_ELEMENT_OP(Name, Policy, Params, Body)       \
  template <class T>                                      \
  struct Name {                                           \
    using A = acc_t<T>;                                   \
    using V = Arith<T, Policy>;                           \
    A operator() Params const { return to_acc<A>(Body); } \
  };

SIMK_ELEMENT_OP(Sigmoid, kPerOpNone, (A x), sigmoid(V(x)))
SIMK_ELEMENT_OP(SigmoidBackward, kPerOpHalf, (A g, A y), V(g) * (V(1) - V(y)) * V(y))
SIMK_ELEMENT_OP(Tanh, kPerOpNone, (A x), vmath::tanh(V(x)))
SIMK_ELEMENT_OP(TanhBackward, kPerOpNone, (A g, A y), V(g) * (V(1) - V(y) * V(y)))
SIMK_ELEMENT_OP(Relu, kPerOpNone, (A x), x < A(0) ? A(0) : x)  // NaN stays NaN
SIMK_ELEMENT_OP(Silu, kPerOpBFloat16, (A x), V(x) / (V(1) + vmath::exp(-V(x))))
SIMK_ELEMENT_OP(SiluBackward, kPerOpBFloat16, (A g, A x),
                V(g) * sigmoid(V(x)) * (V(1) + V(x) * (V(1) - sigmoid(V(x)))))
#undef SIMK_ELEMENT_OP

template <template <class> class F, class... Ins>
void float_op(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out, Ins... ins) {
  elementwise<kFloating>(
      kernel, ctx, out, [](auto tag) { return F<TypeOf<decltype(tag)>>{}; }, ins...);
}

}  // namespace

// ---------------------------------------------------------------- sigmoid / tanh

diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSigmoid);
  return guarded(kernel.name, [&] { float_op<Sigmoid>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                  diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output) {
  SIMK_KERNEL(diopiSigmoidBackward);
  return guarded(kernel.name, [&] {
    float_op<SigmoidBackward>(kernel, ctx, grad_input, In{grad_output, "grad_output"},
                              In{output, "output"});
  });
}

diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiTanh);
  return guarded(kernel.name, [&] { float_op<Tanh>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                               diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t output) {
  SIMK_KERNEL(diopiTanhBackward);
  return guarded(kernel.name, [&] {
    float_op<TanhBackward>(kernel, ctx, grad_input, In{grad_output, "grad_output"},
                           In{output, "output"});
  });
}

// ---------------------------------------------------------------- relu / threshold

diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiRelu);
  return guarded(kernel.name, [&] { float_op<Relu>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiReluInp);
  return guarded(kernel.name, [&] { float_op<Relu>(kernel, ctx, input, In{input, "input"}); });
}

diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* threshold,
                            const diopiScalar_t* value) {
  SIMK_KERNEL(diopiThreshold);
  return guarded(kernel.name, [&] {
    const Scalar th = scalar_arg(threshold, "threshold"), val = scalar_arg(value, "value");
    elementwise<kFloating>(
        kernel, ctx, out,
        [th, val](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A t = th.rounded<T>(), v = val.rounded<T>();
          return [t, v](A x) -> A { return x <= t ? v : x; };
        },
        In{input, "input"});
  });
}

diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                    diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input,
                                    const diopiScalar_t* threshold) {
  SIMK_KERNEL(diopiThresholdBackward);
  return guarded(kernel.name, [&] {
    const Scalar th = scalar_arg(threshold, "threshold");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [th](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A t = th.rounded<T>();
          return [t](A g, A x) -> A { return x <= t ? A(0) : g; };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}

// ---------------------------------------------------------------- silu / gelu

diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSilu);
  return guarded(kernel.name, [&] { float_op<Silu>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                               diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSiluBackward);
  return guarded(kernel.name, [&] {
    float_op<SiluBackward>(kernel, ctx, grad_input, In{grad_output, "grad_output"},
                           In{input, "input"});
  });
}

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
          using V = Arith<T, kPerOpBFloat16>;  // the tanh form is computed in bfloat16 by ATen
          return [tanh_approx](A x) -> A {
            return tanh_approx ? to_acc<A>(gelu_tanh(V(x))) : gelu_erf(x);
          };
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
          using V = Arith<T, kPerOpBFloat16>;  // the tanh form is computed in bfloat16 by ATen
          return [tanh_approx](A g, A x) -> A {
            return tanh_approx ? to_acc<A>(gelu_tanh_backward(V(g), V(x)))
                               : gelu_erf_backward(g, x);
          };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
