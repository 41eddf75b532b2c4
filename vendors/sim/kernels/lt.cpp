// The `lt` family: Element-wise less-than; the result is bool. DIOPI: diopiLt, diopiLtScalar,
// diopiLtInp, diopiLtInpScalar.
#include <diopi/prototypes.h>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiLt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                     diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLt);
  return guarded(kernel.name, [&] { compare_tensor<Cmp::kLt>(kernel, ctx, out, input, other); });
}

diopiError_t diopiLtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiLtScalar);
  return guarded(kernel.name, [&] { compare_scalar<Cmp::kLt>(kernel, ctx, out, input, other); });
}

SIMK_COMPARE_ENTRY_POINTS(Lt, Cmp::kLt)
