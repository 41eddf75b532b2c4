// logical_binary<Op>: logical and / or (bool out, any input dtypes, broadcast).
#ifndef SIM_KERNELS_COMMON_LOGICAL_H_
#define SIM_KERNELS_COMMON_LOGICAL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

template <int Op>  // 0: and, 1: or
void logical_binary(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  // Inputs are converted to out's dtype first: a nonzero (or NaN) stays nonzero in bool and
  // floating outs; integral outs see the inputs' integral values.
  elementwise<kAllTypes>(
      kernel, ctx, out,
      [](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [](A a, A b) -> A {
          const bool x = a != A(0), y = b != A(0);
          return static_cast<A>(Op == 0 ? (x && y) : (x || y));
        };
      },
      In{input, "input"}, In{other, "other"});
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_LOGICAL_H_
