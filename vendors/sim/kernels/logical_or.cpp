// The `logical_or` family: Element-wise logical OR with broadcasting (nonzero is true); the
// result is bool, or 1 / 0 in out's dtype. DIOPI: diopiLogicalOr, diopiLogicalOrInp.
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

diopiError_t diopiLogicalOr(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalOr);
  return guarded(kernel.name, [&] { logical_binary<1>(kernel, ctx, out, input, other); });
}

diopiError_t diopiLogicalOrInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalOrInp);
  return guarded(kernel.name, [&] { logical_binary<1>(kernel, ctx, input, input, other); });
}
