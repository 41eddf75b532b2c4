// The `max` family: Maximum along dim with the index of its first occurrence (NaN counts as the
// maximum), or over all elements. DIOPI: diopiMax, diopiMaxAll.
#include <diopi/prototypes.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_dim.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max,
                      diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                      int64_t dim) {
  SIMK_KERNEL(diopiMax);
  return guarded(kernel.name, [&] { reduce_dim<true>(kernel, ctx, max, max_indices, input, dim); });
}

diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max,
                         diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiMaxAll);
  return guarded(kernel.name, [&] { reduce_all<true>(kernel, ctx, max, input); });
}
