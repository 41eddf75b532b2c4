// Named helpers the catalogue references for outputs DIOPI does not produce (`computed:`).
#pragma once

#include <ATen/core/Tensor.h>

namespace opweave {
namespace helpers {

// nll_loss's total_weight: the summed class weights of the targets that are not ignored
// (their count without weights); 0 for reduction='none' on a batch, as ATen computes it.
void nll_loss_total_weight(at::Tensor& total_weight, const at::Tensor& input,
                           const at::Tensor& target, const c10::optional<at::Tensor>& weight,
                           int64_t reduction, int64_t ignore_index);

}  // namespace helpers
}  // namespace opweave
