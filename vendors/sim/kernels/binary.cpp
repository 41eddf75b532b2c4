// Binary arithmetic: add, sub (and rsub), mul (bool too), div, pow, maximum, addcmul, addcdiv
// (tensor and scalar operands, out-of-place and in-place). Computed in out's dtype (float for
// 16-bit floats).
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

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

// x * y; logical and for bool (ATen's mul of bool tensors).
struct MulOp {
  template <class A>
  A operator()(A x, A y) const {
    if constexpr (std::is_same<A, bool>::value) {
      return x && y;
    } else {
      return x * y;
    }
  }
};

constexpr uint32_t kMulTypes = kFloatingAndInt | dtype_bit(diopi_dtype_bool);

void mul_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  elementwise<kMulTypes>(
      kernel, ctx, out, [](auto) { return MulOp{}; }, In{input, "input"}, In{other, "other"});
}

void mul_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* other_arg) {
  const Scalar other = scalar_arg(other_arg, "other");
  elementwise<kMulTypes>(
      kernel, ctx, out,
      [other](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A b = other.rounded<T>();
        return [b](A x) -> A { return MulOp{}(x, b); };
      },
      In{input, "input"});
}

// ATen's div with rounding_mode="floor" (div_floor_floating); 16-bit types are computed with
// 16-bit operations as ATen 1.13's vectorized kernel does.
template <class T>
acc_t<T> div_floor(acc_t<T> a, acc_t<T> b) {
  using A = acc_t<T>;
  using V = Arith<T, kPerOpHalf | kPerOpBFloat16>;
  if (b == 0) return a / b;
  const A mod = std::fmod(a, b);  // exact
  V div = (V(a) - V(mod)) / V(b);
  if (mod != 0 && (b < 0) != (mod < 0)) div = div - V(1);
  if (to_acc<A>(div) == 0) return std::copysign(A(0), a / b);
  V floordiv = V(std::floor(to_acc<A>(div)));
  if (to_acc<A>(div - floordiv) > A(0.5)) floordiv = floordiv + V(1);
  return to_acc<A>(floordiv);
}

// Element functor of div for storage type T: true, truncating or flooring division.
template <class T>
struct DivOp {
  using A = acc_t<T>;
  diopiRoundMode_t mode;
  A operator()(A x, A y) const {
    switch (mode) {
      case RoundModeTrunc:
        // ATen rounds the quotient to the storage type before truncating.
        return std::trunc(load(convert<T>(x / y)));
      case RoundModeFloor:
        return div_floor<T>(x, y);
      default:
        return x / y;
    }
  }
};

void check_round_mode(diopiRoundMode_t mode) {
  SIMK_CHECK(mode == RoundModeNone || mode == RoundModeTrunc || mode == RoundModeFloor,
             "invalid rounding_mode %d", static_cast<int>(mode));
}

void div_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                diopiRoundMode_t mode) {
  check_round_mode(mode);
  elementwise<kFloating>(
      kernel, ctx, out, [mode](auto tag) { return DivOp<TypeOf<decltype(tag)>>{mode}; },
      In{input, "input"}, In{other, "other"});
}

void div_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* other_arg,
                diopiRoundMode_t mode) {
  check_round_mode(mode);
  const Scalar other = scalar_arg(other_arg, "other");
  elementwise<kFloating>(
      kernel, ctx, out,
      [mode, other](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const DivOp<T> div{mode};
        const A b = other.rounded<T>();
        return [div, b](A x) -> A { return div(x, b); };
      },
      In{input, "input"});
}

// x ** e with ATen's special cases for common exponents (e already rounded to the dtype).
// ATen 1.13 computes the bfloat16 special cases with bfloat16 operations.
template <class T>
acc_t<T> pow_scalar_exponent(acc_t<T> xa, acc_t<T> e) {
  using A = acc_t<T>;
  using V = Arith<T, kPerOpBFloat16>;
  const V x(xa);
  if (e == A(2)) return to_acc<A>(x * x);
  if (e == A(3)) return to_acc<A>(x * x * x);
  if (e == A(0.5)) return std::sqrt(xa);
  if (e == A(-0.5)) return A(1) / std::sqrt(xa);
  if (e == A(-1)) return A(1) / xa;
  if (e == A(-2)) return to_acc<A>(V(1) / (x * x));
  return std::pow(xa, e);
}

}  // namespace

// ---------------------------------------------------------------- add / sub

diopiError_t diopiAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAdd);
  return guarded(kernel.name, [&] { add_tensor<1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiAddInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddInp);
  return guarded(kernel.name, [&] { add_tensor<1>(kernel, ctx, input, input, other, alpha); });
}

diopiError_t diopiAddScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddScalar);
  return guarded(kernel.name, [&] { add_scalar<1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiAddInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddInpScalar);
  return guarded(kernel.name, [&] { add_scalar<1>(kernel, ctx, input, input, other, alpha); });
}

diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSub);
  return guarded(kernel.name, [&] { add_tensor<-1>(kernel, ctx, out, input, other, alpha); });
}

// rsub: other - alpha * input, sub with the operands swapped (as ATen computes it).
diopiError_t diopiRsub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                       const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiRsub);
  return guarded(kernel.name, [&] { add_tensor<-1>(kernel, ctx, out, other, input, alpha); });
}

diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSubInp);
  return guarded(kernel.name, [&] { add_tensor<-1>(kernel, ctx, input, input, other, alpha); });
}

diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSubScalar);
  return guarded(kernel.name, [&] { add_scalar<-1>(kernel, ctx, out, input, other, alpha); });
}

diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other, const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiSubInpScalar);
  return guarded(kernel.name, [&] { add_scalar<-1>(kernel, ctx, input, input, other, alpha); });
}

// ---------------------------------------------------------------- mul

diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMul);
  return guarded(kernel.name, [&] { mul_tensor(kernel, ctx, out, input, other); });
}

diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMulInp);
  return guarded(kernel.name, [&] { mul_tensor(kernel, ctx, input, input, other); });
}

diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiMulScalar);
  return guarded(kernel.name, [&] { mul_scalar(kernel, ctx, out, input, other); });
}

diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other) {
  SIMK_KERNEL(diopiMulInpScalar);
  return guarded(kernel.name, [&] { mul_scalar(kernel, ctx, input, input, other); });
}

// ---------------------------------------------------------------- div

diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDiv);
  return guarded(kernel.name, [&] { div_tensor(kernel, ctx, out, input, other, rounding_mode); });
}

diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other, diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDivInp);
  return guarded(kernel.name, [&] { div_tensor(kernel, ctx, input, input, other, rounding_mode); });
}

diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDivScalar);
  return guarded(kernel.name, [&] { div_scalar(kernel, ctx, out, input, other, rounding_mode); });
}

diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other, diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDivInpScalar);
  return guarded(kernel.name, [&] { div_scalar(kernel, ctx, input, input, other, rounding_mode); });
}

// ---------------------------------------------------------------- pow

diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, const diopiScalar_t* exponent) {
  SIMK_KERNEL(diopiPow);
  return guarded(kernel.name, [&] {
    const Scalar e = scalar_arg(exponent, "exponent");
    elementwise<kFloating>(
        kernel, ctx, out,
        [e](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A ev = e.rounded<T>();
          return [ev](A x) -> A { return pow_scalar_exponent<T>(x, ev); };
        },
        In{input, "input"});
  });
}

diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t exponent) {
  SIMK_KERNEL(diopiPowTensor);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A e) -> A { return std::pow(x, e); };
        },
        In{input, "input"}, In{exponent, "exponent"});
  });
}

// ---------------------------------------------------------------- maximum

diopiError_t diopiMaximum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMaximum);
  return guarded(kernel.name, [&] {
    elementwise<kFloatingAndInt>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          // NaN propagates from either side, like ATen.
          return [](A x, A y) -> A {
            if (x != x) return x;
            if (y != y) return y;
            return x < y ? y : x;
          };
        },
        In{input, "input"}, In{other, "other"});
  });
}

// ---------------------------------------------------------------- addcmul / addcdiv

diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
  SIMK_KERNEL(diopiAddcmul);
  return guarded(kernel.name, [&] {
    const Scalar v = scalar_or(value, Scalar::of_int(1));
    elementwise<kFloating>(
        kernel, ctx, out,
        [v](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A s = v.as<A>();
          return [s](A x, A a, A b) -> A { return x + s * a * b; };
        },
        In{input, "input"}, In{tensor1, "tensor1"}, In{tensor2, "tensor2"});
  });
}

diopiError_t diopiAddcdiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t tensor1,
                          diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
  SIMK_KERNEL(diopiAddcdiv);
  return guarded(kernel.name, [&] {
    const Scalar v = scalar_or(value, Scalar::of_int(1));
    elementwise<kFloating>(
        kernel, ctx, out,
        [v](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A s = v.as<A>();
          return [s](A x, A a, A b) -> A { return x + s * a / b; };
        },
        In{input, "input"}, In{tensor1, "tensor1"}, In{tensor2, "tensor2"});
  });
}
