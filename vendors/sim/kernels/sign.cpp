// The `sign` family: Element-wise sign, -1, 0 or 1 (0 for NaN). DIOPI: diopiSign.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiSign(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSign);
  return guarded(kernel.name, [&] {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          // (0 < x) - (x < 0): NaN gives 0, as ATen's real sign.
          return [](A x) -> A { return static_cast<A>((A(0) < x) - (x < A(0))); };
        },
        In{input, "input"});
  });
}
