// The `softshrink` family: x - lambd where x > lambd, x + lambd where x < -lambd, 0 elsewhere.
// DIOPI: diopiSoftshrink.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shrink.h"

using namespace simk;

diopiError_t diopiSoftshrink(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, const diopiScalar_t* lambd) {
  SIMK_KERNEL(diopiSoftshrink);
  return guarded(kernel.name, [&] { shrink<true>(kernel, ctx, out, input, lambd); });
}
