// The `silu` family: Sigmoid-weighted linear unit, input * sigmoid(input). DIOPI: diopiSilu,
// diopiSiluBackward, diopiSiluInp.
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

SIMK_ELEMENT_OP(Silu, kPerOpBFloat16, (A x), V(x) / (V(1) + vmath::exp(-V(x))))

SIMK_ELEMENT_OP(SiluBackward, kPerOpBFloat16, (A g, A x),
                V(g) * sigmoid(V(x)) * (V(1) + V(x) * (V(1) - sigmoid(V(x)))))

}  // namespace

diopiError_t diopiSilu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSilu);
  return guarded(kernel.name, [&] { float_op<Silu>(kernel, ctx, out, In{input, "input"}); });
}

diopiError_t diopiSiluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                               diopiConstTensorHandle_t grad_output,
                               diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSiluBackward);
  return guarded(kernel.name, [&] {
    float_op<SiluBackward>(kernel, ctx, grad_input, In{grad_output, "grad_output"},
                           In{input, "input"});
  });
}

diopiError_t diopiSiluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiSilu(ctx, input, input);
}
