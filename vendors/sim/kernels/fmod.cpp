// The `fmod` family: C-style modulus with broadcasting (std::fmod), the result has the sign of
// input. DIOPI: diopiFmod, diopiFmodScalar.
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

struct FmodOp {
  template <class A>
  A operator()(A a, A b) const {
    return std::fmod(a, b);
  }
};

}  // namespace

diopiError_t diopiFmod(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFmod);
  return guarded(kernel.name,
                 [&] { tensor_tensor<kFloating>(kernel, ctx, out, input, other, FmodOp{}); });
}

diopiError_t diopiFmodScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiFmodScalar);
  return guarded(kernel.name,
                 [&] { tensor_scalar<kFloating>(kernel, ctx, out, input, other, FmodOp{}); });
}
