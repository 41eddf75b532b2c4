// The `argmin` family: Index of the first minimum along dim (over the flattened input when dim
// is absent). DIOPI: diopiArgmin.
#include <diopi/prototypes.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_dim.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                         diopiConstTensorHandle_t input, const int64_t* dim, bool keepdim) {
  SIMK_KERNEL(diopiArgmin);
  (void)keepdim;
  return guarded(kernel.name, [&] { arg_extreme<false>(kernel, ctx, out, input, dim); });
}
