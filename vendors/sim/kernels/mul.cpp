// The `mul` family: Element-wise product with broadcasting (logical AND of bool tensors). DIOPI:
// diopiMul, diopiMulInp, diopiMulScalar, diopiMulInpScalar.
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// x * y; logical and for bool (ATen's mul of bool tensors).
struct MulOp {
  template <class A>
  A operator()(A x, A y) const {
    if constexpr (std::is_same<A, bool>::value) {
      return x && y;
    } else {
      return x * y;
    }
  }
};

constexpr uint32_t kMulTypes = kFloatingAndInt | dtype_bit(diopi_dtype_bool);

void mul_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  elementwise<kMulTypes>(
      kernel, ctx, out, [](auto) { return MulOp{}; }, In{input, "input"}, In{other, "other"});
}

void mul_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* other_arg) {
  const Scalar other = scalar_arg(other_arg, "other");
  elementwise<kMulTypes>(
      kernel, ctx, out,
      [other](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A b = other.rounded<T>();
        return [b](A x) -> A { return MulOp{}(x, b); };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiMul(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMul);
  return guarded(kernel.name, [&] { mul_tensor(kernel, ctx, out, input, other); });
}

diopiError_t diopiMulInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiMulInp);
  return guarded(kernel.name, [&] { mul_tensor(kernel, ctx, input, input, other); });
}

diopiError_t diopiMulScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  SIMK_KERNEL(diopiMulScalar);
  return guarded(kernel.name, [&] { mul_scalar(kernel, ctx, out, input, other); });
}

diopiError_t diopiMulInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other) {
  SIMK_KERNEL(diopiMulInpScalar);
  return guarded(kernel.name, [&] { mul_scalar(kernel, ctx, input, input, other); });
}
