// The `cumsum` family: Cumulative sum along dim, accumulated in double (floating) or int64
// (integral); the result dtype is out's. DIOPI: diopiCumsum.
#include <diopi/prototypes.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_dim.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiCumsum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                         diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiCumsum);
  return guarded(kernel.name, [&] { cumulative<false>(kernel, ctx, out, input, dim); });
}
