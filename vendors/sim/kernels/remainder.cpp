// The `remainder` family: Python-style modulus with broadcasting, the result has the sign of
// other. DIOPI: diopiRemainderTensor, diopiRemainderScalar, diopiRemainder.
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

// Python's modulus: the sign of the divisor.
struct RemainderOp {
  template <class A>
  A operator()(A a, A b) const {
    A mod = std::fmod(a, b);
    if (mod != A(0) && ((b < A(0)) != (mod < A(0)))) mod += b;
    return mod;
  }
};

}  // namespace

diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiRemainderTensor);
  return guarded(kernel.name,
                 [&] { tensor_tensor<kFloating>(kernel, ctx, out, input, other, RemainderOp{}); });
}

diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiRemainderScalar);
  return guarded(kernel.name,
                 [&] { tensor_scalar<kFloating>(kernel, ctx, out, input, other, RemainderOp{}); });
}

diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            const diopiScalar_t* input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiRemainder);
  return guarded(kernel.name,
                 [&] { scalar_tensor<kFloating>(kernel, ctx, out, input, other, RemainderOp{}); });
}
