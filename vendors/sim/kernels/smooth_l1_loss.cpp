// The `smooth_l1_loss` family: Smooth L1 loss, 0.5 (input - target)^2 / beta where |input -
// target| < beta and |input - target| - 0.5 beta elsewhere, unreduced, summed or averaged, and
// its backward. DIOPI: diopiSmoothL1Loss, diopiSmoothL1LossBackward.
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

template <class V>
V abs_of(V v) {
  return value_of(v) < 0 ? -v : v;
}

// smooth l1 with beta in the tensor's dtype; beta 0 is the L1 loss |a - b|.
struct SmoothL1 {
  double beta;
  template <class V>
  V operator()(V a, V b) const {
    const V z = abs_of(a - b);
    const V bv(beta);
    return value_of(z) < value_of(bv) ? V(0.5) * z * z / bv : z - V(0.5) * bv;
  }
};

}  // namespace

diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                               diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                               diopiReduction_t reduction, double beta) {
  SIMK_KERNEL(diopiSmoothL1Loss);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta, got %g", beta);
    pointwise_loss(kernel, ctx, out, input, target, reduction, SmoothL1{beta});
  });
}

diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                       diopiConstTensorHandle_t grad_output,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t target, diopiReduction_t reduction,
                                       double beta) {
  SIMK_KERNEL(diopiSmoothL1LossBackward);
  return guarded(kernel.name, [&] {
    const double norm = loss_norm(1.0, reduction, input);
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [norm, beta](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOp16>;
          const A nv = load(convert<T>(norm)), bv = load(convert<T>(beta));
          return [nv, bv](A a, A b, A g) -> A {
            const V x = V(a) - V(b);
            const A xv = to_acc<A>(x);
            // beta 0 takes the first two branches only (x <= -0 includes 0), as ATen
            if (xv <= -bv) return to_acc<A>(-V(nv) * V(g));
            if (xv >= bv) return to_acc<A>(V(nv) * V(g));
            return to_acc<A>(V(nv) * x * V(g) / V(bv));
          };
        },
        In{input, "input"}, In{target, "target"}, In{grad_output, "grad_output"});
  });
}
