// The `add` family: Element-wise sum with broadcasting, out = input + alpha * other. DIOPI:
// diopiAdd, diopiAddInp, diopiAddScalar, diopiAddInpScalar.
#include "common/add.h"

#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAdd);
  return guarded(kernel.name, [&] { add_tensor<1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddInp);
  return guarded(kernel.name, [&] { add_tensor<1>(kernel, ctx, input, input, other, alpha); });
}

diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddScalar);
  return guarded(kernel.name, [&] { add_scalar<1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddInpScalar);
  return guarded(kernel.name, [&] { add_scalar<1>(kernel, ctx, input, input, other, alpha); });
}
