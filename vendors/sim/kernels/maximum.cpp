// The `maximum` family: Element-wise maximum of two tensors with broadcasting. DIOPI:
// diopiMaximum.
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMaximum);
  return guarded(kernel.name, [&] {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          // NaN propagates from either side, like ATen.
          return [](A x, A y) -> A {
            if (x != x) return x;
            if (y != y) return y;
            return x < y ? y : x;
          };
        },
        In{input, "input"}, In{other, "other"});
  });
}
