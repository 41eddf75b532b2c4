// The `logaddexp2` family: log2(2 ** input + 2 ** other) without overflow, with broadcasting.
// DIOPI: diopiLogaddexp2.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

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
