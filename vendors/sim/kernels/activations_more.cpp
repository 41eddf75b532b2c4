// hardsigmoid (+ in-place), hardshrink, softshrink and mish (+ in-place): ATen 1.13's CPU
// formulas, computed in float for 16-bit types (rounded once), lambd rounded to the dtype.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

void hardsigmoid(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input) {
  elementwise<kFloating>(
      kernel, ctx, out,
      [](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [](A x) -> A { return std::min(std::max(x + A(3), A(0)), A(6)) / A(6); };
      },
      In{input, "input"});
}

void mish(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
          diopiConstTensorHandle_t input) {
  elementwise<kFloat32Or64>(
      kernel, ctx, out,
      [](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [](A x) -> A { return x * std::tanh(std::log1p(std::exp(x))); };
      },
      In{input, "input"});
}

// Soft (Soft true) or hard shrinkage by lambd.
template <bool Soft>
void shrink(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
            diopiConstTensorHandle_t input, const diopiScalar_t* lambd_arg) {
  const Scalar lambd = scalar_or(lambd_arg, Scalar::of_double(0.5));
  elementwise<kFloating>(
      kernel, ctx, out,
      [lambd](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A l = lambd.rounded<T>();
        return [l](A x) -> A {
          if constexpr (Soft) {
            return x > l ? x - l : (x < -l ? x + l : x * A(0));
          } else {
            return (x >= -l && x <= l) ? A(0) : x;
          }
        };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiHardsigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                              diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiHardsigmoid);
  return guarded(kernel.name, [&] { hardsigmoid(kernel, ctx, out, input); });
}

diopiError_t diopiHardsigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiHardsigmoidInp);
  return guarded(kernel.name, [&] { hardsigmoid(kernel, ctx, input, input); });
}

diopiError_t diopiMish(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiMish);
  return guarded(kernel.name, [&] { mish(kernel, ctx, out, input); });
}

diopiError_t diopiMishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiMishInp);
  return guarded(kernel.name, [&] { mish(kernel, ctx, input, input); });
}

diopiError_t diopiHardshrink(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, const diopiScalar_t* lambd) {
  SIMK_KERNEL(diopiHardshrink);
  return guarded(kernel.name, [&] { shrink<false>(kernel, ctx, out, input, lambd); });
}

diopiError_t diopiSoftshrink(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, const diopiScalar_t* lambd) {
  SIMK_KERNEL(diopiSoftshrink);
  return guarded(kernel.name, [&] { shrink<true>(kernel, ctx, out, input, lambd); });
}

// log_sigmoid_forward: out = min(x, 0) - log1p(exp(-|x|)), buffer = exp(-|x|).
diopiError_t diopiLogSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiTensorHandle_t buffer, diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiLogSigmoid);
  return guarded(kernel.name, [&] {
    // Two element-wise passes over the input, both in the dtype's compute type.
    elementwise<kFloating>(
        kernel, ctx, buffer,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x) -> A { return std::exp(-std::abs(x)); };
        },
        In{input, "input"});
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x) -> A { return std::min(x, A(0)) - std::log1p(std::exp(-std::abs(x))); };
        },
        In{input, "input"});
  });
}
