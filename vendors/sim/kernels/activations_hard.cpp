// Piecewise-linear activations: hardtanh (ReLU6 is hardtanh(0, 6)) and hardswish, with their
// in-place forms and backward. Formulas follow ATen 1.13's CPU kernels; 16-bit floats are
// computed in float.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

template <class A>
bool is_nan(A v) {
  return v != v;
}

void hardtanh(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
              diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
              const diopiScalar_t* max_val) {
  const Scalar lo = scalar_arg(min_val, "min_val"), hi = scalar_arg(max_val, "max_val");
  elementwise<kFloating>(
      kernel, ctx, out,
      [lo, hi](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A l = lo.rounded<T>(), h = hi.rounded<T>();
        return [l, h](A x) -> A { return is_nan(x) ? x : std::min(std::max(x, l), h); };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                           const diopiScalar_t* max_val) {
  SIMK_KERNEL(diopiHardtanh);
  return guarded(kernel.name, [&] { hardtanh(kernel, ctx, out, input, min_val, max_val); });
}

diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                              const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
  SIMK_KERNEL(diopiHardtanhInp);
  return guarded(kernel.name, [&] { hardtanh(kernel, ctx, input, input, min_val, max_val); });
}

diopiError_t diopiHardtanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                   diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                                   const diopiScalar_t* max_val) {
  SIMK_KERNEL(diopiHardtanhBackward);
  return guarded(kernel.name, [&] {
    const Scalar lo = scalar_arg(min_val, "min_val"), hi = scalar_arg(max_val, "max_val");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [lo, hi](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A l = lo.rounded<T>(), h = hi.rounded<T>();
          return [l, h](A g, A x) -> A { return (x <= l || x >= h) ? A(0) : g; };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}

namespace {

void hardswish(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
               diopiConstTensorHandle_t input) {
  elementwise<kFloating>(
      kernel, ctx, out,
      [](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [](A x) -> A { return x * std::min(std::max(x + A(3), A(0)), A(6)) / A(6); };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiHardswish);
  return guarded(kernel.name, [&] { hardswish(kernel, ctx, out, input); });
}

diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiHardswishInp);
  return guarded(kernel.name, [&] { hardswish(kernel, ctx, input, input); });
}

diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                    diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiHardswishBackward);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          // ATen 1.13 computes the middle branch with 16-bit operations (each one rounded). Its
          // vectorized loop takes x == 3 as the upper branch (its scalar tail loop does not):
          // the sim follows the vectorized loop, which sees almost every element.
          using V = Arith<T, kPerOpHalf | kPerOpBFloat16>;
          return [](A g, A x) -> A {
            if (x < A(-3)) return A(0);
            if (x < A(3)) return to_acc<A>(V(g) * ((V(x) / V(3)) + V(0.5)));
            return g;
          };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
