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
  // Runs through the dispatcher on the device, with catalogue kernels. Without class weights
  // the total is the count of kept targets: two kernels (a sum over a float copy of the mask,
  // negated, added to numel and copied into the output took seven).
  const at::Tensor kept = at::ne(target, ignore_index);
  if (!weight.has_value() || !weight->defined()) {
    // An empty dim list reduces over all dims, in 1.13 and 2.x alike.
    at::sum_out(total_weight, kept, at::IntArrayRef{}, /*keepdim=*/false, input.scalar_type());
    return;
  }
  const at::Tensor safe_target = at::where(kept, target, at::zeros_like(target));
  const at::Tensor picked = weight->index_select(0, safe_target.reshape({-1}));
  total_weight.copy_(at::sum(at::mul(picked, kept.reshape({-1}).to(input.scalar_type()))));
}

}  // namespace helpers
}  // namespace opweave
