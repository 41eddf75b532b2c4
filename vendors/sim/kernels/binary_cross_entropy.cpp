// The `binary_cross_entropy` family: Binary cross entropy -w (t log(x) + (1 - t) log(1 - x)) of
// probabilities x, each log clamped at -100, unreduced, summed or averaged. DIOPI: diopiBCELoss.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "common/elementwise.h"
#include "common/pointwise_loss.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                          diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t target_h,
                          diopiConstTensorHandle_t weight_h, diopiReduction_t reduction) {
  SIMK_KERNEL(diopiBCELoss);
  return guarded(kernel.name, [&] {
    check_reduction(reduction);
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View target = input_view(target_h, "target");
    check_dtype(input, kFloat32Or64, "input");
    SIMK_CHECK(out.dtype == input.dtype && target.dtype == input.dtype,
               "out (%s) and target (%s) must have input's dtype %s", dtype_name(out.dtype),
               dtype_name(target.dtype), dtype_name(input.dtype));
    // target and weight broadcast to input's shape; a target that widens it gets no defined
    // answer from ATen 1.13 (its loss is input-shaped), so it is left to the CPU
    const View shape = broadcast_shape(input, target);
    if (!same_shape(shape, input))
      failf(diopiNoImplement, "target %s broadcasts input %s to another shape",
            target.shape_str().c_str(), input.shape_str().c_str());
    const View x_b = broadcast_to(input, shape, "input"),
               t_b = broadcast_to(target, shape, "target");
    const bool weighted = weight_h != nullptr;
    View weight;
    if (weighted) {
      weight = broadcast_to(input_view(weight_h, "weight"), shape, "weight");
      SIMK_CHECK(weight.dtype == input.dtype, "weight has dtype %s, input %s",
                 dtype_name(weight.dtype), dtype_name(input.dtype));
    }
    if (reduction == ReductionNone) {
      SIMK_CHECK(same_shape(out, shape), "out has shape %s, expected %s", out.shape_str().c_str(),
                 shape.shape_str().c_str());
    } else {
      SIMK_CHECK(out.numel() == 1, "a reduced loss has one element, out has shape %s",
                 out.shape_str().c_str());
    }
    launch(kernel, ctx, out, [=] {
      dispatch<kFloat32Or64>(input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> x = packed<T>(x_b), t = packed<T>(t_b);
        const std::vector<T> w = weighted ? packed<T>(weight) : std::vector<T>();
        std::vector<T> loss(x.size());
        for (size_t i = 0; i < x.size(); ++i) {
          SIMK_CHECK(x[i] >= T(0) && x[i] <= T(1),
                     "all elements of input should be between 0 and 1");
          // ATen's per-element formula in T, the weight applied after it
          const T l = (t[i] - T(1)) * std::max(static_cast<T>(std::log1p(-x[i])), T(-100)) -
                      t[i] * std::max(static_cast<T>(std::log(x[i])), T(-100));
          loss[i] = weighted ? l * w[i] : l;
        }
        if (reduction == ReductionNone) {
          unpack(out, loss);
          return;
        }
        double sum = 0;
        for (const T l : loss) sum += static_cast<double>(l);
        std::vector<T> r{static_cast<T>(
            reduction == ReductionMean ? sum / static_cast<double>(loss.size()) : sum)};
        unpack(out, r);
      });
    });
  });
}
