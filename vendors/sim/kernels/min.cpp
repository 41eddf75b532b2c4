// The `min` family: Minimum along dim with the index of its first occurrence (NaN counts as the
// minimum), or over all elements. DIOPI: diopiMin, diopiMinAll.
#include <diopi/prototypes.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_dim.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                      diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
  SIMK_KERNEL(diopiMin);
  return guarded(kernel.name,
                 [&] { reduce_dim<false>(kernel, ctx, min, min_indices, input, dim); });
}

diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                         diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiMinAll);
  return guarded(kernel.name, [&] { reduce_all<false>(kernel, ctx, min, input); });
}
