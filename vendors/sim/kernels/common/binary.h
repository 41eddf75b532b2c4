// Binary element-wise kernels with broadcasting: tensor_tensor, tensor_scalar, scalar_tensor
// (scalar operands rounded to out's dtype first, as ATen does when it wraps them into 0-dim
// tensors), fmax / fmin's functor and the bitwise and / or / xor entry points (SIMK_BITWISE).
// Computed in out's dtype (float for 16-bit floats, int64 for integers).
#ifndef SIM_KERNELS_COMMON_BINARY_H_
#define SIM_KERNELS_COMMON_BINARY_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "elementwise.h"
#include "scalar.h"

namespace simk {

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

}  // namespace simk

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

#endif  // SIM_KERNELS_COMMON_BINARY_H_
