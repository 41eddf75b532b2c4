// The `mish` family: Self-regularized activation x * tanh(softplus(x)). DIOPI: diopiMish,
// diopiMishInp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

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

}  // namespace

diopiError_t diopiMish(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiMish);
  return guarded(kernel.name, [&] { mish(kernel, ctx, out, input); });
}

diopiError_t diopiMishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiMishInp);
  return guarded(kernel.name, [&] { mish(kernel, ctx, input, input); });
}
