// The `elu` family: Exponential linear unit, scale * x for x > 0 and scale * alpha *
// (exp(input_scale * x) - 1) otherwise, and its backward. DIOPI: diopiElu, diopiEluBackward.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

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
