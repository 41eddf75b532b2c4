// The `bitwise_not` family: Element-wise bitwise NOT of integral input (logical NOT for bool).
// DIOPI: diopiBitwiseNot, diopiBitwiseNotInp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// ~x on integers, !x on bool (ATen's bitwise_not of a bool tensor).
void bitwise_not(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input) {
  elementwise<kIntegral | dtype_bit(diopi_dtype_bool)>(
      kernel, ctx, out,
      [](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        return [](A x) -> A {
          if constexpr (std::is_same<T, bool>::value) {
            return !x;
          } else {
            return static_cast<A>(~x);
          }
        };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiBitwiseNot);
  return guarded(kernel.name, [&] { bitwise_not(kernel, ctx, out, input); });
}

diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiBitwiseNotInp);
  return guarded(kernel.name, [&] { bitwise_not(kernel, ctx, input, input); });
}
