// Binary element-wise math with broadcasting: atan2, remainder (tensor / scalar on either
// side), fmod, copysign (tensor / scalar other), logaddexp(2), xlogy, hypot, fmax, fmin,
// nextafter, heaviside, bitwise and / or / xor (+ in-place, scalar other), logical xor
// (+ in-place) and pow with a scalar base. Computed in out's dtype (float for 16-bit floats,
// int64 for integers); scalar operands are rounded to out's dtype first, as ATen does when it
// wraps them into 0-dim tensors. Formulas follow ATen 1.13's CPU kernels.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

constexpr uint32_t kBitwise = kIntegral | dtype_bit(diopi_dtype_bool);

// out = op(input, other); `out` may be `input` (in-place forms).
template <uint32_t Set, class Op>
void tensor_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t other, Op op,
                   const char* other_name = "other") {
  elementwise<Set>(
      kernel, ctx, out,
      [op](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [op](A x, A y) -> A { return static_cast<A>(op(x, y)); };
      },
      In{input, "input"}, In{other, other_name});
}

// out = op(input, other) with a scalar other.
template <uint32_t Set, class Op>
void tensor_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                   diopiConstTensorHandle_t input, const diopiScalar_t* other_arg, Op op) {
  const Scalar other = scalar_arg(other_arg, "other");
  elementwise<Set>(
      kernel, ctx, out,
      [op, other](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A y = other.rounded<T>();
        return [op, y](A x) -> A { return static_cast<A>(op(x, y)); };
      },
      In{input, "input"});
}

// out = op(input, other) with a scalar input.
template <uint32_t Set, class Op>
void scalar_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                   const diopiScalar_t* input_arg, diopiConstTensorHandle_t other, Op op,
                   const char* other_name = "other") {
  const Scalar input = scalar_arg(input_arg, "input");
  elementwise<Set>(
      kernel, ctx, out,
      [op, input](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A x = input.rounded<T>();
        return [op, x](A y) -> A { return static_cast<A>(op(x, y)); };
      },
      In{other, other_name});
}

// Python's modulus: the sign of the divisor.
struct RemainderOp {
  template <class A>
  A operator()(A a, A b) const {
    A mod = std::fmod(a, b);
    if (mod != A(0) && ((b < A(0)) != (mod < A(0)))) mod += b;
    return mod;
  }
};
struct FmodOp {
  template <class A>
  A operator()(A a, A b) const {
    return std::fmod(a, b);
  }
};
struct CopysignOp {
  template <class A>
  A operator()(A a, A b) const {
    return std::copysign(a, b);
  }
};

}  // namespace

diopiError_t diopiAtan2(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiAtan2);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other,
                             [](auto a, auto b) { return std::atan2(a, b); });
  });
}

// ---------------------------------------------------------------- remainder / fmod / copysign

diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiRemainderTensor);
  return guarded(kernel.name,
                 [&] { tensor_tensor<kFloating>(kernel, ctx, out, input, other, RemainderOp{}); });
}

diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiRemainderScalar);
  return guarded(kernel.name,
                 [&] { tensor_scalar<kFloating>(kernel, ctx, out, input, other, RemainderOp{}); });
}

diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            const diopiScalar_t* input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiRemainder);
  return guarded(kernel.name,
                 [&] { scalar_tensor<kFloating>(kernel, ctx, out, input, other, RemainderOp{}); });
}

diopiError_t diopiFmod(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFmod);
  return guarded(kernel.name,
                 [&] { tensor_tensor<kFloating>(kernel, ctx, out, input, other, FmodOp{}); });
}

diopiError_t diopiFmodScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiFmodScalar);
  return guarded(kernel.name,
                 [&] { tensor_scalar<kFloating>(kernel, ctx, out, input, other, FmodOp{}); });
}

diopiError_t diopiCopysign(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiCopysign);
  return guarded(kernel.name,
                 [&] { tensor_tensor<kFloating>(kernel, ctx, out, input, other, CopysignOp{}); });
}

diopiError_t diopiCopysignScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiCopysignScalar);
  return guarded(kernel.name,
                 [&] { tensor_scalar<kFloating>(kernel, ctx, out, input, other, CopysignOp{}); });
}

// ---------------------------------------------------------------- logaddexp / xlogy / hypot

diopiError_t diopiLogaddexp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogaddexp);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other, [](auto a, auto b) {
      using A = decltype(a);
      if (std::isinf(a) && a == b) return a;
      const A m = std::max(a, b);
      return static_cast<A>(m + std::log1p(std::exp(-std::abs(a - b))));
    });
  });
}

diopiError_t diopiLogaddexp2(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogaddexp2);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other, [](auto a, auto b) {
      using A = decltype(a);
      const A inv_log_2 = static_cast<A>(1.0 / 0.693147180559945309417232121458176568);
      if (std::isinf(a) && a == b) return a;
      const A m = std::max(a, b);
      return static_cast<A>(m + std::log1p(std::exp2(-std::abs(a - b))) * inv_log_2);
    });
  });
}

diopiError_t diopiXlogy(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiXlogy);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other, [](auto x, auto y) {
      using A = decltype(x);
      if (std::isnan(y)) return std::numeric_limits<A>::quiet_NaN();
      if (x == A(0)) return A(0);
      return static_cast<A>(x * std::log(y));
    });
  });
}

diopiError_t diopiHypot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiHypot);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other,
                             [](auto a, auto b) { return std::hypot(a, b); });
  });
}

// ---------------------------------------------------------------- fmax / fmin / nextafter

namespace {

template <bool Max>
struct FminmaxOp {
  template <class A>
  A operator()(A a, A b) const {
    if constexpr (std::is_floating_point<A>::value) {
      return Max ? std::fmax(a, b) : std::fmin(a, b);
    } else {
      return Max ? std::max(a, b) : std::min(a, b);
    }
  }
};

}  // namespace

diopiError_t diopiFmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFmax);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloatingAndInt>(kernel, ctx, out, input, other, FminmaxOp<true>{});
  });
}

diopiError_t diopiFmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFmin);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloatingAndInt>(kernel, ctx, out, input, other, FminmaxOp<false>{});
  });
}

// In the storage type itself: float32 / float64 only (16-bit types step by their own ulp).
diopiError_t diopiNextafter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiNextafter);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloat32Or64>(kernel, ctx, out, input, other,
                                [](auto a, auto b) { return std::nextafter(a, b); });
  });
}

diopiError_t diopiHeaviside(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t values) {
  SIMK_KERNEL(diopiHeaviside);
  return guarded(kernel.name, [&] {
    tensor_tensor<kAllTypes>(
        kernel, ctx, out, input, values,
        [](auto a, auto b) {
          using A = decltype(a);
          return a == A(0) ? b : static_cast<A>(a > A(0));
        },
        "values");
  });
}

// ---------------------------------------------------------------- bitwise / logical

namespace {

template <int Op>  // 0: and, 1: or, 2: xor
struct BitOp {
  template <class A>
  A operator()(A a, A b) const {
    if constexpr (Op == 0) {
      return static_cast<A>(a & b);
    } else if constexpr (Op == 1) {
      return static_cast<A>(a | b);
    } else {
      return static_cast<A>(a ^ b);
    }
  }
};

}  // namespace

#define SIMK_BITWISE(Name, Op)                                                                     \
  diopiError_t diopiBitwise##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,               \
                                  diopiConstTensorHandle_t input,                                  \
                                  diopiConstTensorHandle_t other) {                                \
    SIMK_KERNEL(diopiBitwise##Name);                                                               \
    return guarded(kernel.name,                                                                    \
                   [&] { tensor_tensor<kBitwise>(kernel, ctx, out, input, other, BitOp<Op>{}); }); \
  }                                                                                                \
  diopiError_t diopiBitwise##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input,        \
                                       diopiConstTensorHandle_t other) {                           \
    SIMK_KERNEL(diopiBitwise##Name##Inp);                                                          \
    return guarded(kernel.name, [&] {                                                              \
      tensor_tensor<kBitwise>(kernel, ctx, input, input, other, BitOp<Op>{});                      \
    });                                                                                            \
  }                                                                                                \
  diopiError_t diopiBitwise##Name##Scalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,       \
                                          diopiConstTensorHandle_t input,                          \
                                          const diopiScalar_t* other) {                            \
    SIMK_KERNEL(diopiBitwise##Name##Scalar);                                                       \
    return guarded(kernel.name,                                                                    \
                   [&] { tensor_scalar<kBitwise>(kernel, ctx, out, input, other, BitOp<Op>{}); }); \
  }                                                                                                \
  diopiError_t diopiBitwise##Name##InpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,  \
                                             const diopiScalar_t* other) {                         \
    SIMK_KERNEL(diopiBitwise##Name##InpScalar);                                                    \
    return guarded(kernel.name, [&] {                                                              \
      tensor_scalar<kBitwise>(kernel, ctx, input, input, other, BitOp<Op>{});                      \
    });                                                                                            \
  }

SIMK_BITWISE(And, 0)
SIMK_BITWISE(Or, 1)
SIMK_BITWISE(Xor, 2)
#undef SIMK_BITWISE

namespace {

// As logical_and: inputs are converted to out's dtype first; nonzero (or NaN) is true.
void logical_xor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  tensor_tensor<kAllTypes>(kernel, ctx, out, input, other, [](auto a, auto b) {
    using A = decltype(a);
    return static_cast<A>((a != A(0)) != (b != A(0)));
  });
}

}  // namespace

diopiError_t diopiLogicalXor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalXor);
  return guarded(kernel.name, [&] { logical_xor(kernel, ctx, out, input, other); });
}

diopiError_t diopiLogicalXorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalXorInp);
  return guarded(kernel.name, [&] { logical_xor(kernel, ctx, input, input, other); });
}

// ---------------------------------------------------------------- pow with a scalar base

diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            const diopiScalar_t* input, diopiConstTensorHandle_t exponent) {
  SIMK_KERNEL(diopiPowScalar);
  return guarded(kernel.name, [&] {
    scalar_tensor<kFloating>(
        kernel, ctx, out, input, exponent, [](auto b, auto e) { return std::pow(b, e); },
        "exponent");
  });
}
