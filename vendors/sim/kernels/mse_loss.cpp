// The `mse_loss` family: Mean squared error (input - target)^2 with broadcasting, unreduced,
// summed or averaged, and its backward. DIOPI: diopiMSELoss, diopiMSELossBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/pointwise_loss.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

struct Mse {
  template <class V>
  V operator()(V a, V b) const {
    const V d = a - b;
    return d * d;
  }
};

}  // namespace

diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiReduction_t reduction) {
  SIMK_KERNEL(diopiMSELoss);
  return guarded(kernel.name,
                 [&] { pointwise_loss(kernel, ctx, out, input, target, reduction, Mse{}); });
}

diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                  diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                  diopiReduction_t reduction) {
  SIMK_KERNEL(diopiMSELossBackward);
  return guarded(kernel.name, [&] {
    const double norm = loss_norm(2.0, reduction, input);
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [norm](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOp16>;
          const A nv = load(convert<T>(norm));
          // ATen: norm * (input - target) * grad_output
          return [nv](A a, A b, A g) -> A { return to_acc<A>(V(nv) * (V(a) - V(b)) * V(g)); };
        },
        In{input, "input"}, In{target, "target"}, In{grad_output, "grad_output"});
  });
}
