// shrink: hardshrink and softshrink (lambd rounded to the dtype, computed in float for 16-bit).
#ifndef SIM_KERNELS_COMMON_SHRINK_H_
#define SIM_KERNELS_COMMON_SHRINK_H_

#include <algorithm>
#include <cmath>

#include "elementwise.h"
#include "scalar.h"

namespace simk {

// Soft (Soft true) or hard shrinkage by lambd.
template <bool Soft>
void shrink(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
            diopiConstTensorHandle_t input, const diopiScalar_t* lambd_arg) {
  const Scalar lambd = scalar_or(lambd_arg, Scalar::of_double(0.5));
  elementwise<kFloating>(
      kernel, ctx, out,
      [lambd](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A l = lambd.rounded<T>();
        return [l](A x) -> A {
          if constexpr (Soft) {
            return x > l ? x - l : (x < -l ? x + l : x * A(0));
          } else {
            return (x >= -l && x <= l) ? A(0) : x;
          }
        };
      },
      In{input, "input"});
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_SHRINK_H_
