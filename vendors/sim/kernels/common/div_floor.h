// ATen's flooring division of floating values (div_floor_floating), shared by div (rounding_mode
// "floor") and floor_divide.
#ifndef SIM_KERNELS_COMMON_DIV_FLOOR_H_
#define SIM_KERNELS_COMMON_DIV_FLOOR_H_

#include <cmath>

#include "arith.h"
#include "dtype.h"

namespace simk {

// a // b as ATen computes it: (a - fmod(a, b)) / b, corrected towards the floor; 16-bit types
// are computed with 16-bit operations as ATen 1.13's vectorized kernel does.
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

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_DIV_FLOOR_H_
