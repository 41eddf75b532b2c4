// The `cumprod` family: Cumulative product along dim, accumulated in double (floating) or int64
// (integral); the result dtype is out's. DIOPI: diopiCumprod.
#include <diopi/prototypes.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_dim.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiCumprod(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiCumprod);
  return guarded(kernel.name, [&] { cumulative<true>(kernel, ctx, out, input, dim); });
}
