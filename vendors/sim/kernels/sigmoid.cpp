// The `sigmoid` family: Logistic sigmoid, 1 / (1 + exp(-input)). DIOPI: diopiSigmoid,
// diopiSigmoidBackward, diopiSigmoidInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstring>

#include "common/activation.h"
#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

SIMK_ELEMENT_OP(Sigmoid, kPerOpNone, (A x), sigmoid(V(x)))

SIMK_ELEMENT_OP(SigmoidBackward, kPerOpHalf, (A g, A y), V(g) * (V(1) - V(y)) * V(y))

}  // namespace

diopiError_t diopiSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSigmoid);
  return guarded(kernel.name, [&] { float_op<Sigmoid>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiSigmoidBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                  diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output) {
  SIMK_KERNEL(diopiSigmoidBackward);
  return guarded(kernel.name, [&] {
    float_op<SigmoidBackward>(kernel, ctx, grad_input, In{grad_output, "grad_output"},
                              In{output, "output"});
  });
}

diopiError_t diopiSigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiSigmoid(ctx, input, input);
}
