// Exponential activations and their backward: softplus and elu. Formulas and coefficient
// rounding follow ATen 1.13's CPU kernels: the scalar arguments are rounded to the tensor's
// dtype first (Scalar::to<scalar_t>()), bfloat16 runs through ATen's vectorized path, which
// rounds after every operation, and float16 (which CPU torch 1.13 lacks) is computed in float
// and rounded once.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// The value of a compute value (float, double or a rounded 16-bit value), for comparisons.
inline float value_of(float v) { return v; }
inline double value_of(double v) { return v; }
template <class T>
float value_of(Rounded<T> v) {
  return v.v;
}

// softplus: x where beta * x > threshold, else log1p(exp(beta * x)) / beta.
template <class V, class A>
V softplus(V x, V beta, A threshold) {
  const V xb = x * beta;
  return value_of(xb) > threshold ? x : vmath::log1p(vmath::exp(xb)) / beta;
}

// Its gradient from the input: g where beta * x > threshold, else g * z / (z + 1), z = exp(beta x).
template <class V, class A>
V softplus_backward(V g, V x, V beta, A threshold) {
  const V xb = x * beta;
  const V z = vmath::exp(xb);
  return value_of(xb) > threshold ? g : g * z / (z + V(1));
}

// elu with negcoef = alpha * scale, poscoef = scale, negiptcoef = input_scale.
template <class V>
V elu(V x, V negcoef, V poscoef, V negiptcoef) {
  return value_of(x) > 0 ? x * poscoef : (vmath::exp(x * negiptcoef) - V(1)) * negcoef;
}

// Its gradient from the input, or (is_result) from the forward output y = elu(x).
template <class V>
V elu_backward(V g, V b, V negcoef, V poscoef, V negiptcoef, bool is_result) {
  if (value_of(b) > 0) return g * poscoef;
  return is_result ? g * negiptcoef * (b + negcoef)
                   : g * negiptcoef * negcoef * vmath::exp(b * negiptcoef);
}

}  // namespace

// ---------------------------------------------------------------- softplus

diopiError_t diopiSoftplus(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const diopiScalar_t* beta,
                           const diopiScalar_t* threshold) {
  SIMK_KERNEL(diopiSoftplus);
  return guarded(kernel.name, [&] {
    const Scalar b = scalar_arg(beta, "beta"), t = scalar_arg(threshold, "threshold");
    elementwise<kFloating>(
        kernel, ctx, out,
        [b, t](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOpBFloat16>;
          const A beta_t = b.rounded<T>();
          const A th = t.rounded<T>();
          return [beta_t, th](A x) -> A { return to_acc<A>(softplus(V(x), V(beta_t), th)); };
        },
        In{input, "input"});
  });
}

diopiError_t diopiSoftplusBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                   diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t input, const diopiScalar_t* beta,
                                   const diopiScalar_t* threshold) {
  SIMK_KERNEL(diopiSoftplusBackward);
  return guarded(kernel.name, [&] {
    const Scalar b = scalar_arg(beta, "beta"), t = scalar_arg(threshold, "threshold");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [b, t](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOpBFloat16>;
          const A beta_t = b.rounded<T>();
          const A th = t.rounded<T>();
          return [beta_t, th](A g, A x) -> A {
            return to_acc<A>(softplus_backward(V(g), V(x), V(beta_t), th));
          };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}

// ---------------------------------------------------------------- elu

diopiError_t diopiElu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, const diopiScalar_t* alpha,
                      const diopiScalar_t* scale, const diopiScalar_t* input_scale) {
  SIMK_KERNEL(diopiElu);
  return guarded(kernel.name, [&] {
    const Scalar a = scalar_arg(alpha, "alpha"), s = scalar_arg(scale, "scale"),
                 is = scalar_arg(input_scale, "input_scale");
    elementwise<kFloating>(
        kernel, ctx, out,
        [a, s, is](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOpBFloat16>;
          // ATen multiplies the rounded alpha and scale in the tensor's dtype.
          const A neg = to_acc<A>(Arith<T, kPerOpHalf | kPerOpBFloat16>(a.rounded<T>()) *
                                  Arith<T, kPerOpHalf | kPerOpBFloat16>(s.rounded<T>()));
          const A pos = s.rounded<T>(), ipt = is.rounded<T>();
          return [neg, pos, ipt](A x) -> A { return to_acc<A>(elu(V(x), V(neg), V(pos), V(ipt))); };
        },
        In{input, "input"});
  });
}

diopiError_t diopiEluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                              diopiConstTensorHandle_t grad_output, diopiConstTensorHandle_t input,
                              const diopiScalar_t* alpha, const diopiScalar_t* scale,
                              const diopiScalar_t* input_scale, bool input_is_result) {
  SIMK_KERNEL(diopiEluBackward);
  return guarded(kernel.name, [&] {
    const Scalar a = scalar_arg(alpha, "alpha"), s = scalar_arg(scale, "scale"),
                 is = scalar_arg(input_scale, "input_scale");
    const bool is_result = input_is_result;
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [a, s, is, is_result](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          using V = Arith<T, kPerOpBFloat16>;
          const A neg = to_acc<A>(Arith<T, kPerOpHalf | kPerOpBFloat16>(a.rounded<T>()) *
                                  Arith<T, kPerOpHalf | kPerOpBFloat16>(s.rounded<T>()));
          const A pos = s.rounded<T>(), ipt = is.rounded<T>();
          return [neg, pos, ipt, is_result](A g, A b) -> A {
            return to_acc<A>(elu_backward(V(g), V(b), V(neg), V(pos), V(ipt), is_result));
          };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
