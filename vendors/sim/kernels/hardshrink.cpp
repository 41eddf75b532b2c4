// The `hardshrink` family: x where |x| > lambd, 0 elsewhere. DIOPI: diopiHardshrink.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shrink.h"

using namespace simk;

diopiError_t diopiHardshrink(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, const diopiScalar_t* lambd) {
  SIMK_KERNEL(diopiHardshrink);
  return guarded(kernel.name, [&] { shrink<false>(kernel, ctx, out, input, lambd); });
}
