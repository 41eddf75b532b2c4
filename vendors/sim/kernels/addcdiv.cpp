// The `addcdiv` family: out = input + value * tensor1 / tensor2, with broadcasting. DIOPI:
// diopiAddcdiv.
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
  SIMK_KERNEL(diopiAddcdiv);
  return guarded(kernel.name, [&] {
    const Scalar v = scalar_or(value, Scalar::of_int(1));
    elementwise<kFloating>(
        kernel, ctx, out,
        [v](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A s = v.as<A>();
          return [s](A x, A a, A b) -> A { return x + s * a / b; };
        },
        In{input, "input"}, In{tensor1, "tensor1"}, In{tensor2, "tensor2"});
  });
}
