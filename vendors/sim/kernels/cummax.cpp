// The `cummax` family: Running maximum along dim with the index where it was last attained
// (equal values take the later index; a NaN stays the maximum from where it appears, each later
// NaN taking over the index). DIOPI extension: diopiCummax.
#include <diopi/prototypes.h>

#include "common/cum_extreme.h"

using namespace simk;

diopiError_t diopiCummax(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                         diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiCummax);
  return guarded(kernel.name, [&] { cum_extreme<true>(kernel, ctx, values, indices, input, dim); });
}
