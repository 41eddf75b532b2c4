// The `xlogy` family: input * log(other), 0 where input is 0 (unless other is NaN), with
// broadcasting. DIOPI: diopiXlogy.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

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
