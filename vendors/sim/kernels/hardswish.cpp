// The `hardswish` family: Hard swish, x * relu6(x + 3) / 6, and its backward. DIOPI:
// diopiHardswish, diopiHardswishInp, diopiHardswishBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

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
