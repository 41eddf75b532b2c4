// The `rsub` family: Reversed subtraction with broadcasting, out = other - alpha * input. DIOPI:
// diopiRsub.
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/add.h"
#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

// rsub: other - alpha * input, sub with the operands swapped (as ATen computes it).
diopiError_t diopiRsub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                       const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiRsub);
  return guarded(kernel.name, [&] { add_tensor<-1>(kernel, ctx, out, other, input, alpha); });
}
