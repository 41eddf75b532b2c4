// The `mean` family: Mean over the given dimensions (all when dim is empty); keepdim is read
// from out's shape. DIOPI: diopiMean.
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

diopiError_t diopiMean(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiSize_t dim) {
  SIMK_KERNEL(diopiMean);
  return guarded(kernel.name,
                 [&] { reduction_kernel<true, kFloating>(kernel, ctx, out, input, dim); });
}
