// The `sub` family: Element-wise difference with broadcasting, out = input - alpha * other.
// DIOPI: diopiSub, diopiSubInp, diopiSubScalar, diopiSubInpScalar.
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/add.h"
#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSub);
  return guarded(kernel.name, [&] { add_tensor<-1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSubInp);
  return guarded(kernel.name, [&] { add_tensor<-1>(kernel, ctx, input, input, other, alpha); });
}

diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSubScalar);
  return guarded(kernel.name, [&] { add_scalar<-1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSubInpScalar);
  return guarded(kernel.name, [&] { add_scalar<-1>(kernel, ctx, input, input, other, alpha); });
}
