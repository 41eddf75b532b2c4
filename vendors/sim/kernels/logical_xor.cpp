// The `logical_xor` family: Element-wise logical XOR with broadcasting (nonzero is true); the
// result is bool, or 1 / 0 in out's dtype. DIOPI: diopiLogicalXor, diopiLogicalXorInp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// As logical_and: inputs are converted to out's dtype first; nonzero (or NaN) is true.
void logical_xor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  tensor_tensor<kAllTypes>(kernel, ctx, out, input, other, [](auto a, auto b) {
    using A = decltype(a);
    return static_cast<A>((a != A(0)) != (b != A(0)));
  });
}

}  // namespace

diopiError_t diopiLogicalXor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalXor);
  return guarded(kernel.name, [&] { logical_xor(kernel, ctx, out, input, other); });
}

diopiError_t diopiLogicalXorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiLogicalXorInp);
  return guarded(kernel.name, [&] { logical_xor(kernel, ctx, input, input, other); });
}
