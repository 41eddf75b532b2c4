#include "opweave/op_helpers.h"

#include <ATen/ATen.h>

namespace opweave {
namespace helpers {

void nll_loss_total_weight(at::Tensor& total_weight, const at::Tensor& input,
                           const at::Tensor& target, const c10::optional<at::Tensor>& weight,
                           int64_t reduction, int64_t ignore_index) {
  if (reduction == 0 && input.dim() == 2) {
    total_weight.fill_(0);
    return;
  }
  // Runs through the dispatcher on the device, with catalogue kernels (eq, sum, mul, add).
  const at::Tensor ignored = at::eq(target, ignore_index);
  at::Tensor total;
  if (weight.has_value() && weight->defined()) {
    const at::Tensor safe_target = at::where(ignored, at::zeros_like(target), target);
    const at::Tensor kept = at::add(at::mul(ignored.to(input.scalar_type()), -1), 1);
    total =
        at::sum(at::mul(weight->index_select(0, safe_target.reshape({-1})), kept.reshape({-1})));
  } else {
    total = at::add(at::mul(at::sum(ignored.to(input.scalar_type())), -1), target.numel());
  }
  total_weight.copy_(total.reshape({}));
}

}  // namespace helpers
}  // namespace opweave
