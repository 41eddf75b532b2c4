// Storage types, compute types, conversions and the dtype switch of the sim kernels.
//
//   dispatch<kFloating>(dtype, [&](auto tag) { using T = TypeOf<decltype(tag)>; ... });
//
// calls the functor with TypeTag<T> for the storage type T of `dtype`, and throws a
// diopiDtypeNotSupported KernelError when `dtype` is not in the compile-time set.
#ifndef SIM_KERNELS_COMMON_DTYPE_H_
#define SIM_KERNELS_COMMON_DTYPE_H_

#include <diopi/diopirt.h>

#include <cstdint>
#include <type_traits>

#include "half.h"

namespace simk {

template <class T>
struct TypeTag {
  using type = T;
};
template <class Tag>
using TypeOf = typename std::decay_t<Tag>::type;

// ---- dtype sets (bit d set <=> dtype d in the set) ----
constexpr uint32_t dtype_bit(diopiDtype_t d) { return uint32_t{1} << static_cast<unsigned>(d); }
constexpr uint32_t kFloating = dtype_bit(diopi_dtype_float16) | dtype_bit(diopi_dtype_bfloat16) |
                               dtype_bit(diopi_dtype_float32) | dtype_bit(diopi_dtype_float64);
constexpr uint32_t kFloat32Or64 = dtype_bit(diopi_dtype_float32) | dtype_bit(diopi_dtype_float64);
constexpr uint32_t kFloatingAndInt =
    kFloating | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);
constexpr uint32_t kIntegral = dtype_bit(diopi_dtype_int8) | dtype_bit(diopi_dtype_uint8) |
                               dtype_bit(diopi_dtype_int16) | dtype_bit(diopi_dtype_int32) |
                               dtype_bit(diopi_dtype_int64);
constexpr uint32_t kAllTypes = kFloating | kIntegral | dtype_bit(diopi_dtype_bool);

inline bool in_set(diopiDtype_t d, uint32_t set) {
  return static_cast<unsigned>(d) < 32 && (set & dtype_bit(d)) != 0;
}
inline bool is_floating(diopiDtype_t d) { return in_set(d, kFloating); }
inline bool is_integral(diopiDtype_t d) { return in_set(d, kIntegral); }

const char* dtype_name(diopiDtype_t d);
int64_t dtype_size(diopiDtype_t d);  // 0 for dtypes the sim does not know

// ---- storage type <-> dtype ----
template <class T>
struct DtypeOf;
#define SIMK_DTYPE_OF(T, D)                  \
  template <>                                \
  struct DtypeOf<T> {                        \
    static constexpr diopiDtype_t value = D; \
  };
SIMK_DTYPE_OF(bool, diopi_dtype_bool)
SIMK_DTYPE_OF(int8_t, diopi_dtype_int8)
SIMK_DTYPE_OF(uint8_t, diopi_dtype_uint8)
SIMK_DTYPE_OF(int16_t, diopi_dtype_int16)
SIMK_DTYPE_OF(int32_t, diopi_dtype_int32)
SIMK_DTYPE_OF(int64_t, diopi_dtype_int64)
SIMK_DTYPE_OF(Half, diopi_dtype_float16)
SIMK_DTYPE_OF(BFloat16, diopi_dtype_bfloat16)
SIMK_DTYPE_OF(float, diopi_dtype_float32)
SIMK_DTYPE_OF(double, diopi_dtype_float64)
#undef SIMK_DTYPE_OF
template <class T>
constexpr diopiDtype_t dtype_of = DtypeOf<T>::value;

// ---- compute type: what a storage type is loaded as for arithmetic ----
template <class T>
struct AccOf {
  using type =
      std::conditional_t<std::is_integral<T>::value && !std::is_same<T, bool>::value, int64_t, T>;
};
template <>
struct AccOf<Half> {
  using type = float;
};
template <>
struct AccOf<BFloat16> {
  using type = float;
};
template <class T>
using acc_t = typename AccOf<T>::type;

template <class T>
constexpr bool is_reduced_float = std::is_same<T, Half>::value || std::is_same<T, BFloat16>::value;

// ---- conversions (value semantics of ATen's static_cast between scalar types) ----
template <class To, class From>
inline To convert(From v) {
  if constexpr (is_reduced_float<From>) {
    return convert<To>(static_cast<float>(v));
  } else if constexpr (std::is_same<To, From>::value) {
    return v;
  } else if constexpr (is_reduced_float<To>) {
    return To(static_cast<float>(v));
  } else if constexpr (std::is_same<To, bool>::value) {
    return v != From(0);
  } else if constexpr (std::is_integral<To>::value && std::is_floating_point<From>::value) {
    // Through int64 so that narrow integer types wrap like a two-step cast.
    return static_cast<To>(static_cast<int64_t>(v));
  } else {
    return static_cast<To>(v);
  }
}

// Loads a storage value as its compute type.
template <class T>
inline acc_t<T> load(T v) {
  return convert<acc_t<T>>(v);
}

// ---- the dtype switch ----
[[noreturn]] void throw_dtype_not_supported(diopiDtype_t d, uint32_t supported);

template <uint32_t Set, class F>
inline void dispatch(diopiDtype_t d, F&& f) {
  switch (d) {
#define SIMK_CASE(D, T)                        \
  case D:                                      \
    if constexpr ((Set & dtype_bit(D)) != 0) { \
      f(TypeTag<T>{});                         \
      return;                                  \
    }                                          \
    break;
    SIMK_CASE(diopi_dtype_bool, bool)
    SIMK_CASE(diopi_dtype_int8, int8_t)
    SIMK_CASE(diopi_dtype_uint8, uint8_t)
    SIMK_CASE(diopi_dtype_int16, int16_t)
    SIMK_CASE(diopi_dtype_int32, int32_t)
    SIMK_CASE(diopi_dtype_int64, int64_t)
    SIMK_CASE(diopi_dtype_float16, Half)
    SIMK_CASE(diopi_dtype_bfloat16, BFloat16)
    SIMK_CASE(diopi_dtype_float32, float)
    SIMK_CASE(diopi_dtype_float64, double)
#undef SIMK_CASE
    default:
      break;
  }
  throw_dtype_not_supported(d, Set);
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_DTYPE_H_
