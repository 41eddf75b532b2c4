// The `log_sigmoid` family: log(sigmoid(input)) computed stably as min(x, 0) - log1p(exp(-|x|));
// buffer receives exp(-|x|) (what ATen's CPU backward reads). DIOPI: diopiLogSigmoid.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

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
