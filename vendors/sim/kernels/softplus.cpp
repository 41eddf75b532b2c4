// The `softplus` family: Softplus, log(1 + exp(beta * x)) / beta, linear (x) where beta * x >
// threshold, and its backward. DIOPI: diopiSoftplus, diopiSoftplusBackward.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

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

}  // namespace

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
