// What multi_margin_loss and multilabel_margin_loss share: the [nframe, dim] reading of a 0-D,
// 1-D or 2-D input (ATen's shape check) and the reduction of the per-frame losses.
#ifndef SIM_KERNELS_COMMON_MARGIN_LOSS_H_
#define SIM_KERNELS_COMMON_MARGIN_LOSS_H_

#include <vector>

#include "error.h"
#include "view.h"

namespace simk {

struct MarginFrames {
  int64_t nframe = 1, dim = 1;
};

inline MarginFrames margin_frames(const View& input) {
  SIMK_CHECK(input.ndim <= 2 && (input.ndim == 0 || input.sizes[input.ndim - 1] > 0),
             "expected a non-empty 1-D or 2-D input, got %s", input.shape_str().c_str());
  MarginFrames f;
  f.nframe = input.ndim <= 1 ? 1 : input.sizes[0];
  f.dim = input.ndim == 0 ? 1 : input.sizes[input.ndim - 1];
  return f;
}

// The per-frame losses kept (per_sample: reduction none with a batched target), or their sum or
// mean as the one element. Runs on the stream.
inline void reduce_frames(std::vector<double>& loss, bool per_sample, diopiReduction_t reduction) {
  if (per_sample) return;
  double total = 0;
  for (double v : loss) total += v;
  const double n = static_cast<double>(loss.size());
  loss.assign(1, reduction == ReductionMean ? total / n : total);
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_MARGIN_LOSS_H_
