// The `logical_and` family: Element-wise logical AND with broadcasting (nonzero is true); the
// result is bool, or 1 / 0 in out's dtype. DIOPI: diopiLogicalAnd, diopiLogicalAndInp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/logical.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiLogicalAnd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalAnd);
  return guarded(kernel.name, [&] { logical_binary<0>(kernel, ctx, out, input, other); });
}

diopiError_t diopiLogicalAndInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalAndInp);
  return guarded(kernel.name, [&] { logical_binary<0>(kernel, ctx, input, input, other); });
}
