// The `logaddexp` family: log(exp(input) + exp(other)) without overflow, with broadcasting.
// DIOPI: diopiLogaddexp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiLogaddexp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogaddexp);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other, [](auto a, auto b) {
      using A = decltype(a);
      if (std::isinf(a) && a == b) return a;
      const A m = std::max(a, b);
      return static_cast<A>(m + std::log1p(std::exp(-std::abs(a - b))));
    });
  });
}
