// The `multi_margin_loss` family: multi-class margin loss, sum over classes i != y of
// max(0, margin - x[y] + x[i])^p / C (p 1 or 2, optional class weights on x[y]'s terms).
// DIOPI (extension): diopiMultiMarginLoss.
#include <diopi/prototypes.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/margin_loss.h"
#include "common/pointwise_loss.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMultiMarginLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                  diopiConstTensorHandle_t input_h,
                                  diopiConstTensorHandle_t target_h, const diopiScalar_t* p_arg,
                                  const diopiScalar_t* margin_arg,
                                  diopiConstTensorHandle_t weight_h, diopiReduction_t reduction) {
  SIMK_KERNEL(diopiMultiMarginLoss);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View target = input_view(target_h, "target");
    const bool has_weight = weight_h != nullptr;
    const View weight = has_weight ? input_view(weight_h, "weight") : View{};
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    check_dtype(target, dtype_bit(diopi_dtype_int64), "target");
    if (has_weight) check_dtype(weight, kFloating, "weight");
    check_reduction(reduction);
    const int64_t p = scalar_or(p_arg, Scalar::of_int(1)).as<int64_t>();
    const double margin = scalar_or(margin_arg, Scalar::of_int(1)).as<double>();
    SIMK_CHECK(p == 1 || p == 2, "only p == 1 and p == 2 supported");
    const MarginFrames frames = margin_frames(input);
    const int64_t nframe = frames.nframe, dim = frames.dim;
    SIMK_CHECK(target.ndim <= 1 && target.numel() == nframe,
               "inconsistent target size: %s for input %s", target.shape_str().c_str(),
               input.shape_str().c_str());
    SIMK_CHECK(!has_weight || (weight.ndim <= 1 && weight.numel() == dim),
               "inconsistent weight size: %s for input %s", weight.shape_str().c_str(),
               input.shape_str().c_str());
    const bool per_sample = reduction == ReductionNone && target.ndim > 0;
    SIMK_CHECK(out.numel() == (per_sample ? nframe : 1), "out has shape %s",
               out.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<int64_t> t = packed<int64_t>(target);
      const std::vector<double> w = has_weight ? packed<double>(weight) : std::vector<double>{};
      std::vector<double> loss(static_cast<size_t>(nframe));
      for (int64_t f = 0; f < nframe; ++f) {
        const int64_t y = t[f];
        if (y < 0 || y >= dim)
          throw std::runtime_error("target " + std::to_string(y) + " is out of bounds");
        const double* row = x.data() + f * dim;
        double sum = 0;
        for (int64_t d = 0; d < dim; ++d) {
          const double z = margin - row[y] + row[d];
          if (d == y || !(z > 0)) continue;
          const double h = p == 1 ? z : z * z;
          sum += has_weight ? h * w[y] : h;
        }
        loss[f] = sum / static_cast<double>(dim);
      }
      reduce_frames(loss, per_sample, reduction);
      unpack(out, loss);
    });
  });
}
