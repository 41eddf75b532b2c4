// Fused optimizer kernels: diopiAdam (L2 weight decay, torch.optim.Adam) and diopiAdamW
// (decoupled weight decay, torch.optim.AdamW). One pass over the parameter: each element of
// input, exp_avg, exp_avg_sq (and max_exp_avg_sq with amsgrad) is read once and written once.
//
// The update is the simulated vendor's (vendors/sim/kernels/adam.cpp), operation for
// operation: per-step coefficients in double on the host, widened from the C floats DIOPI passes
// through their shortest decimal (the Python double torch uses), then the element-wise update
// in acc_t (float for float32 and the 16-bit types, double for float64). The device arithmetic
// goes through the _rn intrinsics so nvcc cannot contract a * b + c into an FMA: the result is
// rounded exactly as the sim's and torch's CPU update round it.
#include <diopi/functions.h>

#include <cmath>

#include "common/cuk.h"
#include "common/device.cuh"
#include "opweave/widen.h"

namespace {

template <class A>
struct AdamCoeffs {
  A decay;  // 1 - lr * weight_decay (AdamW)
  A weight_decay;
  A beta1, one_minus_beta1;
  A beta2, one_minus_beta2;
  A eps;
  A neg_step_size;  // -lr / (1 - beta1^step)
  A bias_correction2_sqrt;
  bool decoupled;  // AdamW: param *= decay
  bool l2;         // Adam with weight decay: grad += weight_decay * param
  bool amsgrad;
};

template <class A>
AdamCoeffs<A> coeffs(float lr_f, float beta1_f, float beta2_f, float eps_f, float wd_f,
                     int64_t step, bool amsgrad, bool decoupled) {
  const double lr = opweave::widen(lr_f), wd = opweave::widen(wd_f);
  const double beta1 = opweave::widen(beta1_f), beta2 = opweave::widen(beta2_f);
  const double steps = static_cast<double>(step);
  AdamCoeffs<A> c{};
  c.decay = static_cast<A>(1.0 - lr * wd);
  c.weight_decay = static_cast<A>(wd);
  c.beta1 = static_cast<A>(beta1);
  c.one_minus_beta1 = static_cast<A>(1.0 - beta1);
  c.beta2 = static_cast<A>(beta2);
  c.one_minus_beta2 = static_cast<A>(1.0 - beta2);
  c.eps = static_cast<A>(opweave::widen(eps_f));
  c.neg_step_size = static_cast<A>(-(lr / (1.0 - std::pow(beta1, steps))));
  c.bias_correction2_sqrt = static_cast<A>(std::sqrt(1.0 - std::pow(beta2, steps)));
  c.decoupled = decoupled;
  c.l2 = !decoupled && wd != 0.0;
  c.amsgrad = amsgrad;
  return c;
}

// Correctly rounded, never-fused arithmetic.
__device__ __forceinline__ float mul(float a, float b) { return __fmul_rn(a, b); }
__device__ __forceinline__ double mul(double a, double b) { return __dmul_rn(a, b); }
__device__ __forceinline__ float add(float a, float b) { return __fadd_rn(a, b); }
__device__ __forceinline__ double add(double a, double b) { return __dadd_rn(a, b); }
__device__ __forceinline__ float div(float a, float b) { return __fdiv_rn(a, b); }
__device__ __forceinline__ double div(double a, double b) { return __ddiv_rn(a, b); }
__device__ __forceinline__ float root(float a) { return __fsqrt_rn(a); }
__device__ __forceinline__ double root(double a) { return __dsqrt_rn(a); }

template <class A>
__device__ __forceinline__ A maximum(A a, A b) {  // torch.maximum: NaN propagates
  if (a != a) return a;
  if (b != b) return b;
  return a > b ? a : b;
}

// Operands: 0 param, 1 grad, 2 exp_avg, 3 exp_avg_sq, 4 max_exp_avg_sq (null without amsgrad).
template <class T, bool Dense>
__global__ void adam_kernel(int64_t n, cuk::Geometry<5> g, T* param, const T* grad, T* exp_avg,
                            T* exp_avg_sq, T* max_sq, AdamCoeffs<cuk::acc_t<T>> c) {
  using A = cuk::acc_t<T>;
  int64_t off[5];
  CUK_GRID_STRIDE(i, n) {
    if constexpr (Dense) {
      for (int k = 0; k < 5; ++k) off[k] = i;
    } else {
      g.offsets(i, off);
    }
    A x = cuk::load(param[off[0]]);
    A gr = cuk::load(grad[off[1]]);
    if (c.decoupled) x = mul(x, c.decay);
    if (c.l2) gr = add(gr, mul(c.weight_decay, x));
    const A m = add(mul(cuk::load(exp_avg[off[2]]), c.beta1), mul(c.one_minus_beta1, gr));
    const A v =
        add(mul(cuk::load(exp_avg_sq[off[3]]), c.beta2), mul(mul(c.one_minus_beta2, gr), gr));
    A v_used = v;
    if (c.amsgrad) {
      v_used = maximum(cuk::load(max_sq[off[4]]), v);
      max_sq[off[4]] = cuk::convert<T>(v_used);
    }
    const A denom = add(div(root(v_used), c.bias_correction2_sqrt), c.eps);
    exp_avg[off[2]] = cuk::convert<T>(m);
    exp_avg_sq[off[3]] = cuk::convert<T>(v);
    param[off[0]] = cuk::convert<T>(add(x, mul(c.neg_step_size, div(m, denom))));
  }
}

void adam(diopiContextHandle_t ctx, diopiTensorHandle_t input, diopiTensorHandle_t grad,
          diopiTensorHandle_t exp_avg, diopiTensorHandle_t exp_avg_sq,
          diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1, float beta2, float eps,
          float weight_decay, int64_t step, bool amsgrad, bool decoupled) {
  static const char* const names[5] = {"input", "grad", "exp_avg", "exp_avg_sq", "max_exp_avg_sq"};
  cuk::Tensor t[5];
  t[0] = cuk::output(input, names[0]);
  t[1] = cuk::input(grad, names[1]);
  t[2] = cuk::output(exp_avg, names[2]);
  t[3] = cuk::output(exp_avg_sq, names[3]);
  CUK_CHECK(!amsgrad || max_exp_avg_sq != nullptr, "amsgrad needs max_exp_avg_sq");
  const int nops = amsgrad ? 5 : 4;
  if (amsgrad) t[4] = cuk::output(max_exp_avg_sq, names[4]);
  CUK_CHECK(step >= 1, "step must be at least 1 (already incremented), got %lld",
            static_cast<long long>(step));
  for (int k = 1; k < nops; ++k) {
    CUK_CHECK(t[k].dtype == t[0].dtype, "%s has dtype %s, input %s", names[k],
              cuk::dtype_name(t[k].dtype), cuk::dtype_name(t[0].dtype));
    cuk::check_same_shape(t[k], t[0], names[k], "input");
  }
  // The states are written in place while param and grad are read: distinct storage required
  // (only identical base pointers are detected; partially overlapping views are the caller's).
  if (t[0].numel > 0) {
    for (int k = 2; k < nops; ++k)
      for (int j = 0; j < k; ++j)
        CUK_CHECK(t[k].data != t[j].data, "%s shares its storage with %s", names[k], names[j]);
  }
  cuk::dispatch<cuk::kFloating>(t[0].dtype, "input", [&](auto tag) {
    using T = cuk::TypeOf<decltype(tag)>;
    using A = cuk::acc_t<T>;
    const int64_t n = t[0].numel;
    if (n == 0) return;
    const AdamCoeffs<A> c =
        coeffs<A>(lr, beta1, beta2, eps, weight_decay, step, amsgrad, decoupled);
    bool dense = true;
    for (int k = 0; k < nops; ++k) dense = dense && t[k].is_contiguous();
    cuk::Geometry<5> g;
    g.ndim = t[0].ndim;
    for (int d = 0; d < g.ndim; ++d) {
      g.sizes[d] = t[0].sizes[d];
      for (int k = 0; k < nops; ++k) g.strides[k][d] = t[k].strides[d];
    }
    T* max_sq = amsgrad ? t[4].ptr<T>() : nullptr;
    const cudaStream_t stream = cuk::stream_of(ctx);
    if (dense) {
      adam_kernel<T, true><<<cuk::blocks_for(n), cuk::kThreads, 0, stream>>>(
          n, g, t[0].ptr<T>(), t[1].ptr<const T>(), t[2].ptr<T>(), t[3].ptr<T>(), max_sq, c);
    } else {
      adam_kernel<T, false><<<cuk::blocks_for(n), cuk::kThreads, 0, stream>>>(
          n, g, t[0].ptr<T>(), t[1].ptr<const T>(), t[2].ptr<T>(), t[3].ptr<T>(), max_sq, c);
    }
    cuk::check_launch("adam");
  });
}

}  // namespace

extern "C" diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                  diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                  diopiTensorHandle_t exp_avg_sq,
                                  diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1,
                                  float beta2, float eps, float weight_decay, int64_t step,
                                  bool amsgrad) {
  return cuk::guarded("diopiAdam", [&] {
    adam(ctx, input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2, eps, weight_decay,
         step, amsgrad, /*decoupled=*/false);
  });
}

extern "C" diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                   diopiTensorHandle_t exp_avg_sq,
                                   diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1,
                                   float beta2, float eps, float weight_decay, int64_t step,
                                   bool amsgrad) {
  return cuk::guarded("diopiAdamW", [&] {
    adam(ctx, input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2, eps, weight_decay,
         step, amsgrad, /*decoupled=*/true);
  });
}
