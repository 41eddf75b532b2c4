// Arithmetic of 16-bit floats as ATen 1.13's CPU kernels do it, for bit-level agreement.
//
// Some ATen kernels compute float16 / bfloat16 with the storage type's own operators, so every
// intermediate result is rounded to 16 bits; others convert to float once and round once at the
// end. Formulas here are written once over a value type V:
//
//   template <class V> V silu(V x) { return x / (V(1) + exp(-x)); }
//
// and instantiated with V = Arith<T, policy>: Rounded<T> (round after every operation; constants
// rounded to T too) where the policy names T, else the plain compute type acc_t<T>.
#ifndef SIM_KERNELS_COMMON_ARITH_H_
#define SIM_KERNELS_COMMON_ARITH_H_

#include <cmath>
#include <type_traits>

#include "dtype.h"

namespace simk {

template <class T>
struct Rounded {
  float v;
  static float round(float x) { return static_cast<float>(T(x)); }
  Rounded(double c) : v(round(static_cast<float>(c))) {}  // NOLINT: constants convert implicitly
  Rounded(float c) : v(round(c)) {}                       // NOLINT
  Rounded(int c) : v(round(static_cast<float>(c))) {}     // NOLINT
  explicit operator float() const { return v; }
};

#define SIMK_ROUNDED_BINARY(op)                               \
  template <class T>                                          \
  inline Rounded<T> operator op(Rounded<T> a, Rounded<T> b) { \
    return Rounded<T>(a.v op b.v);                            \
  }
SIMK_ROUNDED_BINARY(+)
SIMK_ROUNDED_BINARY(-)
SIMK_ROUNDED_BINARY(*)
SIMK_ROUNDED_BINARY(/)
#undef SIMK_ROUNDED_BINARY

template <class T>
inline Rounded<T> operator-(Rounded<T> a) {
  return Rounded<T>(-a.v);
}

// Math functions for every value type: std:: for float/double, rounded for Rounded<T>.
namespace vmath {
#define SIMK_VMATH_UNARY(fn)                        \
  inline float fn(float x) { return std::fn(x); }   \
  inline double fn(double x) { return std::fn(x); } \
  template <class T>                                \
  inline Rounded<T> fn(Rounded<T> x) {              \
    return Rounded<T>(std::fn(x.v));                \
  }
SIMK_VMATH_UNARY(exp)
SIMK_VMATH_UNARY(log1p)
SIMK_VMATH_UNARY(tanh)
SIMK_VMATH_UNARY(erf)
SIMK_VMATH_UNARY(sqrt)
#undef SIMK_VMATH_UNARY

inline float pow(float x, float e) { return std::pow(x, e); }
inline double pow(double x, double e) { return std::pow(x, e); }
template <class T>
inline Rounded<T> pow(Rounded<T> x, Rounded<T> e) {
  return Rounded<T>(std::pow(x.v, e.v));
}
}  // namespace vmath

// Which 16-bit types compute with per-operation rounding (bit mask).
enum PerOp : unsigned { kPerOpNone = 0, kPerOpHalf = 1, kPerOpBFloat16 = 2 };

template <class T, unsigned Policy>
using Arith =
    std::conditional_t<(std::is_same<T, Half>::value && (Policy & kPerOpHalf)) ||
                           (std::is_same<T, BFloat16>::value && (Policy & kPerOpBFloat16)),
                       Rounded<T>, acc_t<T>>;

// Value of V back as the compute type A.
template <class A, class V>
inline A to_acc(V v) {
  return static_cast<A>(v);
}

// The value of a compute value (float, double or a rounded 16-bit value), for comparisons.
inline float value_of(float v) { return v; }

inline double value_of(double v) { return v; }

template <class T>
float value_of(Rounded<T> v) {
  return v.v;
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ARITH_H_
