// The `hardsigmoid` family: Piecewise-linear sigmoid, min(max(x + 3, 0), 6) 6. DIOPI:
// diopiHardsigmoid, diopiHardsigmoidInp.
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
