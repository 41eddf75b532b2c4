// The `cummin` family: Running minimum along dim with the index where it was last attained
// (equal values take the later index; a NaN stays the minimum from where it appears, each later
// NaN taking over the index). DIOPI extension: diopiCummin.
#include <diopi/prototypes.h>

#include "common/cum_extreme.h"

using namespace simk;

diopiError_t diopiCummin(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                         diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiCummin);
  return guarded(kernel.name,
                 [&] { cum_extreme<false>(kernel, ctx, values, indices, input, dim); });
}
