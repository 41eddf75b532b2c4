// The `angle` family: The argument of each element of a real tensor, 0 for non-negative values
// and pi for negative ones (NaN stays NaN). DIOPI extension: diopiAngle.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"

using namespace simk;

diopiError_t diopiAngle(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiAngle);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x) -> A {
            if (std::isnan(x)) return x;
            return x < A(0) ? static_cast<A>(M_PI) : A(0);
          };
        },
        In{input, "input"});
  });
}
