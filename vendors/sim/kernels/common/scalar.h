// diopiScalar_t captured by value, converted to a compute type on the stream.
#ifndef SIM_KERNELS_COMMON_SCALAR_H_
#define SIM_KERNELS_COMMON_SCALAR_H_

#include <diopi/diopirt.h>

#include <cstdint>
#include <type_traits>

#include "dtype.h"

namespace simk {

struct Scalar {
  bool is_float = false;
  double f = 0;
  int64_t i = 0;

  static Scalar of_double(double v) { return Scalar{true, v, 0}; }
  static Scalar of_int(int64_t v) { return Scalar{false, 0, v}; }

  // The value as compute type A (double, float, int64_t or bool).
  template <class A>
  A as() const {
    if constexpr (std::is_same<A, bool>::value) {
      return is_float ? f != 0 : i != 0;
    } else if constexpr (std::is_floating_point<A>::value) {
      return is_float ? static_cast<A>(f) : static_cast<A>(i);
    } else {
      return is_float ? static_cast<A>(f) : static_cast<A>(i);
    }
  }

  // The value rounded to storage type T (as ATen's Scalar::to<T>()), loaded as acc_t<T>.
  template <class T>
  acc_t<T> rounded() const {
    if (is_float) return load(convert<T>(f));
    return load(convert<T>(i));
  }
};

// The scalar argument `s`; a null pointer is an error naming `what`.
Scalar scalar_arg(const diopiScalar_t* s, const char* what);
// The scalar argument `s`, or `fallback` when it is null.
Scalar scalar_or(const diopiScalar_t* s, Scalar fallback);

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_SCALAR_H_
