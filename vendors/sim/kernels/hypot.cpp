// The `hypot` family: sqrt(input ** 2 + other ** 2) without undue overflow, with broadcasting.
// DIOPI: diopiHypot.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiHypot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiHypot);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other,
                             [](auto a, auto b) { return std::hypot(a, b); });
  });
}
