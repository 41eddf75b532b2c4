// The `tanh` family: Hyperbolic tangent. DIOPI: diopiTanh, diopiTanhBackward, diopiTanhInp.
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

SIMK_ELEMENT_OP(Tanh, kPerOpNone, (A x), vmath::tanh(V(x)))

SIMK_ELEMENT_OP(TanhBackward, kPerOpNone, (A g, A y), V(g) * (V(1) - V(y) * V(y)))

}  // namespace

diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiTanh);
  return guarded(kernel.name, [&] { float_op<Tanh>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                               diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t output) {
  SIMK_KERNEL(diopiTanhBackward);
  return guarded(kernel.name, [&] {
    float_op<TanhBackward>(kernel, ctx, grad_input, In{grad_output, "grad_output"},
                           In{output, "output"});
  });
}

diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiTanh(ctx, input, input);
}
