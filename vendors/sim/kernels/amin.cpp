// The `amin` family: Minimum over the given dimensions (all when dim is empty), NaN propagating;
// no indices. DIOPI: diopiAmin.
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

diopiError_t diopiAmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
  SIMK_KERNEL(diopiAmin);
  return guarded(kernel.name,
                 [&] { extreme_reduction<false>(kernel, ctx, out, self, dim, keepdim); });
}
