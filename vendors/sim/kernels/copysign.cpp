// The `copysign` family: Magnitude of input with the sign of other, with broadcasting. DIOPI:
// diopiCopysign, diopiCopysignScalar.
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

struct CopysignOp {
  template <class A>
  A operator()(A a, A b) const {
    return std::copysign(a, b);
  }
};

}  // namespace

diopiError_t diopiCopysign(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiCopysign);
  return guarded(kernel.name,
                 [&] { tensor_tensor<kFloating>(kernel, ctx, out, input, other, CopysignOp{}); });
}

diopiError_t diopiCopysignScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiCopysignScalar);
  return guarded(kernel.name,
                 [&] { tensor_scalar<kFloating>(kernel, ctx, out, input, other, CopysignOp{}); });
}
