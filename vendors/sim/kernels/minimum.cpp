// The `minimum` family: Element-wise minimum of two tensors with broadcasting (NaN propagates).
// DIOPI: diopiMinimum.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMinimum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMinimum);
  return guarded(kernel.name, [&] {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A y) -> A {
            if (is_nan(x)) return x;
            if (is_nan(y)) return y;
            return y < x ? y : x;
          };
        },
        In{input, "input"}, In{other, "other"});
  });
}
