// The `any` family: True when any element of input is nonzero (NaN counts as nonzero); dim null
// reduces every element. DIOPI: diopiAny.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/any_all.h"
#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiAny(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, const int64_t* dim) {
  SIMK_KERNEL(diopiAny);
  return guarded(kernel.name, [&] { any_all<true>(kernel, ctx, out, input, dim); });
}
