// The `amax` family: Maximum over the given dimensions (all when dim is empty), NaN propagating;
// no indices. DIOPI: diopiAmax.
#include <diopi/prototypes.h>

#include <cstdlib>
#include <cstring>
#include <type_traits>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
  SIMK_KERNEL(diopiAmax);
  return guarded(kernel.name,
                 [&] { extreme_reduction<true>(kernel, ctx, out, self, dim, keepdim); });
}
