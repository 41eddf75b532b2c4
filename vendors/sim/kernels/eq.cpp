// The `eq` family: Element-wise equality; the result is bool. DIOPI: diopiEq, diopiEqScalar,
// diopiEqInp, diopiEqInpScalar.
#include <diopi/prototypes.h>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiEq(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                     diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiEq);
  return guarded(kernel.name, [&] { compare_tensor<Cmp::kEq>(kernel, ctx, out, input, other); });
}

diopiError_t diopiEqScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiEqScalar);
  return guarded(kernel.name, [&] { compare_scalar<Cmp::kEq>(kernel, ctx, out, input, other); });
}

SIMK_COMPARE_ENTRY_POINTS(Eq, Cmp::kEq)
