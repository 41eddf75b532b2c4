// The `adam` family: One Adam / AdamW update of a parameter tensor and its moment buffers in
// place, for a step count already incremented. DIOPI: diopiAdam, diopiAdamW.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "common/dtype.h"
#include "common/elementwise.h"
#include "common/launch.h"
#include "common/loop.h"
#include "opweave/widen.h"

using namespace simk;

namespace {

// widen(): opweave/widen.h, the double torch computes with for a DIOPI float parameter.
using opweave::widen;

struct AdamCoeffs {
  bool decoupled;  // AdamW: param *= decay; Adam: grad += weight_decay * param
  bool amsgrad;
  double weight_decay;
  double decay;  // 1 - lr * weight_decay
  double beta1, one_minus_beta1;
  double beta2, one_minus_beta2;
  double eps;
  double neg_step_size;  // -lr / (1 - beta1^step)
  double bias_correction2_sqrt;
};

AdamCoeffs coeffs(float lr_f, float beta1_f, float beta2_f, float eps_f, float wd_f, int64_t step,
                  bool amsgrad, bool decoupled) {
  AdamCoeffs c{};
  const double lr = widen(lr_f), wd = widen(wd_f);
  c.decoupled = decoupled;
  c.amsgrad = amsgrad;
  c.weight_decay = wd;
  c.decay = 1.0 - lr * wd;
  c.beta1 = widen(beta1_f);
  c.beta2 = widen(beta2_f);
  c.one_minus_beta1 = 1.0 - c.beta1;
  c.one_minus_beta2 = 1.0 - c.beta2;
  c.eps = widen(eps_f);
  const double steps = static_cast<double>(step);
  c.neg_step_size = -(lr / (1.0 - std::pow(c.beta1, steps)));
  c.bias_correction2_sqrt = std::sqrt(1.0 - std::pow(c.beta2, steps));
  return c;
}

template <class A>
A maximum(A a, A b) {  // torch.maximum: NaN propagates
  if (std::isnan(a)) return a;
  if (std::isnan(b)) return b;
  return a > b ? a : b;
}

// ops: input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq (exp_avg_sq again without amsgrad).
template <class T>
void adam_compute(const View (&views)[5], const AdamCoeffs& c) {
  using A = acc_t<T>;
  const View* ops[5] = {&views[0], &views[1], &views[2], &views[3], &views[4]};
  const A decay = static_cast<A>(c.decay), wd = static_cast<A>(c.weight_decay);
  const A beta1 = static_cast<A>(c.beta1), omb1 = static_cast<A>(c.one_minus_beta1);
  const A beta2 = static_cast<A>(c.beta2), omb2 = static_cast<A>(c.one_minus_beta2);
  const A eps = static_cast<A>(c.eps), neg_step = static_cast<A>(c.neg_step_size);
  const A bc2_sqrt = static_cast<A>(c.bias_correction2_sqrt);
  const bool l2 = !c.decoupled && c.weight_decay != 0.0;
  const bool decoupled = c.decoupled, amsgrad = c.amsgrad;
  StridedLoop<5> loop(ops);
  loop.run([&](char* const* p, const int64_t* s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) {
      T* param = reinterpret_cast<T*>(p[0] + i * s[0]);
      const T* grad = reinterpret_cast<const T*>(p[1] + i * s[1]);
      T* exp_avg = reinterpret_cast<T*>(p[2] + i * s[2]);
      T* exp_avg_sq = reinterpret_cast<T*>(p[3] + i * s[3]);
      T* max_sq = reinterpret_cast<T*>(p[4] + i * s[4]);
      A x = load(*param);
      A g = load(*grad);
      if (decoupled) x = x * decay;
      if (l2) g = g + wd * x;
      const A m = load(*exp_avg) * beta1 + omb1 * g;
      const A v = load(*exp_avg_sq) * beta2 + omb2 * g * g;
      A v_used = v;
      if (amsgrad) {
        v_used = maximum(load(*max_sq), v);
        *max_sq = convert<T>(v_used);
      }
      const A denom = std::sqrt(v_used) / bc2_sqrt + eps;
      *exp_avg = convert<T>(m);
      *exp_avg_sq = convert<T>(v);
      *param = convert<T>(x + neg_step * (m / denom));
    }
  });
}

diopiError_t adam_entry(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t input,
                        diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                        diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq,
                        float lr, float beta1, float beta2, float eps, float weight_decay,
                        int64_t step, bool amsgrad, bool decoupled) {
  return guarded(kernel.name, [&] {
    const View param = output_view(input, "input");
    check_dtype(param, kFloating, "input");
    SIMK_CHECK(step >= 1, "step must be at least 1 (already incremented), got %lld",
               static_cast<long long>(step));
    SIMK_CHECK(!amsgrad || max_exp_avg_sq != nullptr, "amsgrad needs max_exp_avg_sq");
    View views[5] = {param, input_view(grad, "grad"), output_view(exp_avg, "exp_avg"),
                     output_view(exp_avg_sq, "exp_avg_sq"), View{}};
    views[4] = amsgrad ? output_view(max_exp_avg_sq, "max_exp_avg_sq") : views[3];
    static const char* const names[5] = {"input", "grad", "exp_avg", "exp_avg_sq",
                                         "max_exp_avg_sq"};
    for (int k = 1; k < 5; ++k) {
      SIMK_CHECK(views[k].dtype == param.dtype, "%s must have input's dtype", names[k]);
      SIMK_CHECK(same_shape(views[k], param), "%s has shape %s, input %s", names[k],
                 views[k].shape_str().c_str(), param.shape_str().c_str());
    }
    for (int k = 2; k < 5; ++k) {
      SIMK_CHECK(!may_overlap(views[k], param) && !may_overlap(views[k], views[1]),
                 "%s overlaps input or grad", names[k]);
    }
    const AdamCoeffs c = coeffs(lr, beta1, beta2, eps, weight_decay, step, amsgrad, decoupled);
    launch(kernel, ctx, param, [views, c] {
      dispatch<kFloating>(views[0].dtype,
                          [&](auto tag) { adam_compute<TypeOf<decltype(tag)>>(views, c); });
    });
  });
}

}  // namespace

diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                       diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                       diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq, float lr,
                       float beta1, float beta2, float eps, float weight_decay, int64_t step,
                       bool amsgrad) {
  SIMK_KERNEL(diopiAdam);
  return adam_entry(kernel, ctx, input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2,
                    eps, weight_decay, step, amsgrad, /*decoupled=*/false);
}

diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                        diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                        diopiTensorHandle_t exp_avg_sq, diopiTensorHandle_t max_exp_avg_sq,
                        float lr, float beta1, float beta2, float eps, float weight_decay,
                        int64_t step, bool amsgrad) {
  SIMK_KERNEL(diopiAdamW);
  return adam_entry(kernel, ctx, input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2,
                    eps, weight_decay, step, amsgrad, /*decoupled=*/true);
}
