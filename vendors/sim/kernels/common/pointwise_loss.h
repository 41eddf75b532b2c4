// Element-wise losses (mse_loss, smooth_l1_loss) and their reductions: the per-element loss
// in the storage type's own arithmetic (ATen 1.13 rounds 16-bit types after every operation),
// summed or averaged in double and rounded once; the backward's norm rounded to the dtype as
// ATen's Scalar::to<scalar_t>() does.
#ifndef SIM_KERNELS_COMMON_POINTWISE_LOSS_H_
#define SIM_KERNELS_COMMON_POINTWISE_LOSS_H_

#include <cmath>
#include <vector>

#include "arith.h"
#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

constexpr unsigned kPerOp16 = kPerOpHalf | kPerOpBFloat16;

inline void check_reduction(diopiReduction_t reduction) {
  SIMK_CHECK(reduction == ReductionNone || reduction == ReductionMean || reduction == ReductionSum,
             "reduction must be none (0), mean (1) or sum (2), got %d",
             static_cast<int>(reduction));
}

// The broadcast shape of a and b as a View (sizes only).
inline View broadcast_shape(const View& a, const View& b) {
  View r;
  r.ndim = a.ndim > b.ndim ? a.ndim : b.ndim;
  for (int k = 0; k < r.ndim; ++k) {
    const int da = a.ndim - r.ndim + k, db = b.ndim - r.ndim + k;
    const int64_t sa = da >= 0 ? a.sizes[da] : 1, sb = db >= 0 ? b.sizes[db] : 1;
    SIMK_CHECK(sa == sb || sa == 1 || sb == 1, "input %s and target %s do not broadcast",
               a.shape_str().c_str(), b.shape_str().c_str());
    r.sizes[k] = sa == 1 ? sb : sa;
  }
  return r;
}

// out = loss(input, target) per element (reduction none), or its sum / mean (0-dim out).
template <class F>
void pointwise_loss(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t target_h,
                    diopiReduction_t reduction, F f) {
  check_reduction(reduction);
  if (reduction == ReductionNone) {
    elementwise<kFloating>(
        kernel, ctx, out_h,
        [f](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOp16>;
          return [f](A a, A b) -> A { return to_acc<A>(f(V(a), V(b))); };
        },
        In{input_h, "input"}, In{target_h, "target"});
    return;
  }
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  const View target = input_view(target_h, "target");
  check_dtype(out, kFloating, "out");
  check_dtype(input, kFloating, "input");
  check_dtype(target, kFloating, "target");
  SIMK_CHECK(out.numel() == 1, "a reduced loss has one element, out has shape %s",
             out.shape_str().c_str());
  const View shape = broadcast_shape(input, target);
  const View in_b = broadcast_to(input, shape, "input");
  const View tg_b = broadcast_to(target, shape, "target");
  const bool mean = reduction == ReductionMean;
  launch(kernel, ctx, out, [=] {
    dispatch<kFloating>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      using V = Arith<T, kPerOp16>;
      const std::vector<T> a = packed<T>(in_b), b = packed<T>(tg_b);
      double sum = 0;
      for (size_t i = 0; i < a.size(); ++i)  // each loss rounded to T, as ATen's loss tensor
        sum += static_cast<double>(load(convert<T>(to_acc<A>(f(V(load(a[i])), V(load(b[i])))))));
      const double n = static_cast<double>(a.size());
      std::vector<T> r(1);
      if constexpr (is_reduced_float<T>) {
        // ATen sums into the 16-bit output (which may overflow), then divides by the count
        // rounded to the dtype.
        const T total = convert<T>(sum);
        r[0] = mean ? convert<T>(load(total) / load(convert<T>(n))) : total;
      } else {
        r[0] = convert<T>(mean ? sum / n : sum);
      }
      unpack(out, r);
    });
  });
}

// norm for the backward: scale for sum, scale / input.numel() for mean (none: scale).
inline double loss_norm(double scale, diopiReduction_t reduction,
                        diopiConstTensorHandle_t input_h) {
  check_reduction(reduction);
  if (reduction != ReductionMean) return scale;
  return scale / static_cast<double>(input_view(input_h, "input").numel());
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_POINTWISE_LOSS_H_
