// The `huber_loss` family: Huber loss, 0.5 (input - target)^2 where |input - target| < delta and
// delta (|input - target| - 0.5 delta) elsewhere, unreduced, summed or averaged. DIOPI extension:
// diopiHuberLoss.
#include <diopi/prototypes.h>

#include "common/arith.h"
#include "common/pointwise_loss.h"

using namespace simk;

namespace {

// huber with delta in the tensor's dtype, as ATen's kernel.
struct Huber {
  double delta;
  template <class V>
  V operator()(V a, V b) const {
    const V d = a - b;
    const V z = value_of(d) < 0 ? -d : d;
    const V dv(delta);
    return value_of(z) < value_of(dv) ? V(0.5) * z * z : dv * (z - V(0.5) * dv);
  }
};

}  // namespace

diopiError_t diopiHuberLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                            diopiReduction_t reduction, double delta) {
  SIMK_KERNEL(diopiHuberLoss);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(delta > 0, "huber_loss does not support non-positive values for delta, got %g",
               delta);
    pointwise_loss(kernel, ctx, out, input, target, reduction, Huber{delta});
  });
}
