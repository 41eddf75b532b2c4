// The `fmin` family: Element-wise minimum with broadcasting; a NaN loses to a number. DIOPI:
// diopiFmin.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiFmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFmin);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloatingAndInt>(kernel, ctx, out, input, other, FminmaxOp<false>{});
  });
}
