// Element-wise losses and their backward: mse_loss and smooth_l1_loss (diopiMSELoss,
// diopiSmoothL1Loss). The per-element loss follows ATen 1.13's CPU kernels, which compute
// float16 and bfloat16 with the storage type's own operators (rounding after every operation);
// ATen then sums or averages the per-element losses (a tensor of input's dtype), which the sim
// does in double, rounding the sum once (16-bit: then divided by the count rounded to the
// dtype, as ATen's mean of a 16-bit tensor). The backward scales by norm = 2 (mse) or 1
// (smooth l1), divided by input's element count for the mean, rounded to the dtype as ATen's
// Scalar::to<scalar_t>() does.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

constexpr unsigned kPerOp16 = kPerOpHalf | kPerOpBFloat16;

inline float value_of(float v) { return v; }
inline double value_of(double v) { return v; }
template <class T>
float value_of(Rounded<T> v) {
  return v.v;
}

template <class V>
V abs_of(V v) {
  return value_of(v) < 0 ? -v : v;
}

struct Mse {
  template <class V>
  V operator()(V a, V b) const {
    const V d = a - b;
    return d * d;
  }
};

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

void check_reduction(diopiReduction_t reduction) {
  SIMK_CHECK(reduction == ReductionNone || reduction == ReductionMean || reduction == ReductionSum,
             "reduction must be none (0), mean (1) or sum (2), got %d",
             static_cast<int>(reduction));
}

// The broadcast shape of a and b as a View (sizes only).
View broadcast_shape(const View& a, const View& b) {
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
double loss_norm(double scale, diopiReduction_t reduction, diopiConstTensorHandle_t input_h) {
  check_reduction(reduction);
  if (reduction != ReductionMean) return scale;
  return scale / static_cast<double>(input_view(input_h, "input").numel());
}

}  // namespace

diopiError_t diopiMSELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                          diopiReduction_t reduction) {
  SIMK_KERNEL(diopiMSELoss);
  return guarded(kernel.name,
                 [&] { pointwise_loss(kernel, ctx, out, input, target, reduction, Mse{}); });
}

diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                               diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                               diopiReduction_t reduction, double beta) {
  SIMK_KERNEL(diopiSmoothL1Loss);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(beta >= 0, "smooth_l1_loss does not support negative values for beta, got %g", beta);
    pointwise_loss(kernel, ctx, out, input, target, reduction, SmoothL1{beta});
  });
}

diopiError_t diopiMSELossBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                  diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
                                  diopiReduction_t reduction) {
  SIMK_KERNEL(diopiMSELossBackward);
  return guarded(kernel.name, [&] {
    const double norm = loss_norm(2.0, reduction, input);
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [norm](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOp16>;
          const A nv = load(convert<T>(norm));
          // ATen: norm * (input - target) * grad_output
          return [nv](A a, A b, A g) -> A { return to_acc<A>(V(nv) * (V(a) - V(b)) * V(g)); };
        },
        In{input, "input"}, In{target, "target"}, In{grad_output, "grad_output"});
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
