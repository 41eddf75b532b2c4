// The `gt` family: Element-wise greater-than; the result is bool. DIOPI: diopiGt, diopiGtScalar,
// diopiGtInp, diopiGtInpScalar.
#include <diopi/prototypes.h>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiGt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                     diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiGt);
  return guarded(kernel.name, [&] { compare_tensor<Cmp::kGt>(kernel, ctx, out, input, other); });
}

diopiError_t diopiGtScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiGtScalar);
  return guarded(kernel.name, [&] { compare_scalar<Cmp::kGt>(kernel, ctx, out, input, other); });
}

SIMK_COMPARE_ENTRY_POINTS(Gt, Cmp::kGt)
