// The `relu` family: Rectified linear unit, max(input, 0). DIOPI: diopiRelu, diopiReluInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstring>

#include "common/activation.h"
#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

SIMK_ELEMENT_OP(Relu, kPerOpNone, (A x), x < A(0) ? A(0) : x)  // NaN stays NaN

}  // namespace

diopiError_t diopiRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiRelu);
  return guarded(kernel.name, [&] { float_op<Relu>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiReluInp);
  return guarded(kernel.name, [&] { float_op<Relu>(kernel, ctx, input, In{input, "input"}); });
}
