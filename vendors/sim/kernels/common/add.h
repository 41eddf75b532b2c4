// add_tensor / add_scalar: out = input + alpha * other for add, sub (alpha negated) and rsub.
// Computed in out's dtype (float for 16-bit floats; float16 rounds per operation, as ATen).
#ifndef SIM_KERNELS_COMMON_ADD_H_
#define SIM_KERNELS_COMMON_ADD_H_

#include <cmath>
#include <type_traits>

#include "arith.h"
#include "elementwise.h"
#include "scalar.h"

namespace simk {

// Scalar operands (alpha, a scalar `other`) are rounded to out's dtype, and float16 is computed
// with float16 operations, as ATen 1.13 does on CPU.

// out = input + alpha * other (Sign 1) or input - alpha * other (Sign -1).
template <int Sign, class V>
V add_op(V x, V alpha, V y) {
  return Sign > 0 ? x + alpha * y : x - alpha * y;
}

// `other` a tensor.
template <int Sign>
void add_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                const diopiScalar_t* alpha_arg) {
  const Scalar alpha = scalar_or(alpha_arg, Scalar::of_int(1));
  elementwise<kFloatingAndInt>(
      kernel, ctx, out,
      [alpha](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        using V = Arith<T, kPerOpHalf>;
        const A a = alpha.rounded<T>();
        return [a](A x, A y) -> A { return to_acc<A>(add_op<Sign, V>(x, a, y)); };
      },
      In{input, "input"}, In{other, "other"});
}

// `other` a scalar.
template <int Sign>
void add_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* other_arg,
                const diopiScalar_t* alpha_arg) {
  const Scalar other = scalar_arg(other_arg, "other");
  const Scalar alpha = scalar_or(alpha_arg, Scalar::of_int(1));
  elementwise<kFloatingAndInt>(
      kernel, ctx, out,
      [alpha, other](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        using V = Arith<T, kPerOpHalf>;
        const A a = alpha.rounded<T>(), b = other.rounded<T>();
        return [a, b](A x) -> A { return to_acc<A>(add_op<Sign, V>(x, a, b)); };
      },
      In{input, "input"});
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ADD_H_
