// The `heaviside` family: Heaviside step, 0 for input < 0, values where input is 0, 1 for input
// > 0 (input and values of one dtype). DIOPI: diopiHeaviside.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiHeaviside(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t values) {
  SIMK_KERNEL(diopiHeaviside);
  return guarded(kernel.name, [&] {
    tensor_tensor<kAllTypes>(
        kernel, ctx, out, input, values,
        [](auto a, auto b) {
          using A = decltype(a);
          return a == A(0) ? b : static_cast<A>(a > A(0));
        },
        "values");
  });
}
