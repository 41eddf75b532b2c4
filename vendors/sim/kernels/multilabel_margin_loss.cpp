// The `multilabel_margin_loss` family: multi-label margin loss, sum over targets j (up to the
// first -1) and non-targets i of max(0, 1 - x[j] + x[i]) / C, with the target mask.
// DIOPI (extension): diopiMultilabelMarginLoss.
#include <diopi/prototypes.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/margin_loss.h"
#include "common/pointwise_loss.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMultilabelMarginLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                       diopiTensorHandle_t is_target_h,
                                       diopiConstTensorHandle_t input_h,
                                       diopiConstTensorHandle_t target_h,
                                       diopiReduction_t reduction) {
  SIMK_KERNEL(diopiMultilabelMarginLoss);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View is_target = output_view(is_target_h, "is_target");
    const View input = input_view(input_h, "input");
    const View target = input_view(target_h, "target");
    check_dtype(out, kFloating, "out");
    check_dtype(is_target, kFloating, "is_target");
    check_dtype(input, kFloating, "input");
    check_dtype(target, dtype_bit(diopi_dtype_int64), "target");
    check_reduction(reduction);
    const MarginFrames frames = margin_frames(input);
    const int64_t nframe = frames.nframe, dim = frames.dim;
    SIMK_CHECK(target.numel() == nframe * dim && is_target.numel() == nframe * dim,
               "inconsistent target size: %s for input %s", target.shape_str().c_str(),
               input.shape_str().c_str());
    const bool per_sample = reduction == ReductionNone && target.ndim > 1;
    SIMK_CHECK(out.numel() == (per_sample ? nframe : 1), "out has shape %s",
               out.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<int64_t> t = packed<int64_t>(target);
      std::vector<double> mask(static_cast<size_t>(nframe * dim), 0.0);
      std::vector<double> loss(static_cast<size_t>(nframe));
      for (int64_t f = 0; f < nframe; ++f) {
        const double* row = x.data() + f * dim;
        const int64_t* labels = t.data() + f * dim;
        double* is_label = mask.data() + f * dim;
        int64_t count = 0;  // the labels before the first -1
        for (; count < dim && labels[count] >= 0; ++count) {
          if (labels[count] >= dim)
            throw std::runtime_error("target " + std::to_string(labels[count]) +
                                     " is out of bounds");
          is_label[labels[count]] = 1;
        }
        double sum = 0;
        for (int64_t j = 0; j < count; ++j)
          for (int64_t d = 0; d < dim; ++d) {
            const double z = 1 - row[labels[j]] + row[d];
            if (is_label[d] == 0 && z > 0) sum += z;
          }
        loss[f] = sum / static_cast<double>(dim);
      }
      reduce_frames(loss, per_sample, reduction);
      unpack(out, loss);
      unpack(is_target, mask);
    });
  });
}
