// The `sum` family: Sum over the given dimensions (all when dim is empty); keepdim is read from
// out's shape. DIOPI: diopiSum.
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

diopiError_t diopiSum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiSize_t dim) {
  SIMK_KERNEL(diopiSum);
  return guarded(kernel.name, [&] {
    reduction_kernel<false, kFloating | kIntegral>(kernel, ctx, out, input, dim);
  });
}
