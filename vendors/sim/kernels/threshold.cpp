// The `threshold` family: Replaces elements not greater than threshold by value; its backward
// masks the gradient. DIOPI: diopiThreshold, diopiThresholdBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstring>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* threshold,
                            const diopiScalar_t* value) {
  SIMK_KERNEL(diopiThreshold);
  return guarded(kernel.name, [&] {
    const Scalar th = scalar_arg(threshold, "threshold"), val = scalar_arg(value, "value");
    elementwise<kFloating>(
        kernel, ctx, out,
        [th, val](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A t = th.rounded<T>(), v = val.rounded<T>();
          return [t, v](A x) -> A { return x <= t ? v : x; };
        },
        In{input, "input"});
  });
}

diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                    diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input,
                                    const diopiScalar_t* threshold) {
  SIMK_KERNEL(diopiThresholdBackward);
  return guarded(kernel.name, [&] {
    const Scalar th = scalar_arg(threshold, "threshold");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [th](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A t = th.rounded<T>();
          return [t](A g, A x) -> A { return x <= t ? A(0) : g; };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
