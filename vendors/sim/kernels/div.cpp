// The `div` family: Element-wise true division with broadcasting; optional rounding ("trunc" or
// "floor"). DIOPI: diopiDiv, diopiDivInp, diopiDivScalar, diopiDivInpScalar.
#include <diopi/prototypes.h>

#include <cmath>
#include <type_traits>

#include "common/arith.h"
#include "common/div_floor.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// Element functor of div for storage type T: true, truncating or flooring division.
template <class T>
struct DivOp {
  using A = acc_t<T>;
  diopiRoundMode_t mode;
  A operator()(A x, A y) const {
    switch (mode) {
      case RoundModeTrunc:
        // ATen rounds the quotient to the storage type before truncating.
        return std::trunc(load(convert<T>(x / y)));
      case RoundModeFloor:
        return div_floor<T>(x, y);
      default:
        return x / y;
    }
  }
};

void check_round_mode(diopiRoundMode_t mode) {
  SIMK_CHECK(mode == RoundModeNone || mode == RoundModeTrunc || mode == RoundModeFloor,
             "invalid rounding_mode %d", static_cast<int>(mode));
}

void div_tensor(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                diopiRoundMode_t mode) {
  check_round_mode(mode);
  elementwise<kFloating>(
      kernel, ctx, out, [mode](auto tag) { return DivOp<TypeOf<decltype(tag)>>{mode}; },
      In{input, "input"}, In{other, "other"});
}

void div_scalar(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* other_arg,
                diopiRoundMode_t mode) {
  check_round_mode(mode);
  const Scalar other = scalar_arg(other_arg, "other");
  elementwise<kFloating>(
      kernel, ctx, out,
      [mode, other](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const DivOp<T> div{mode};
        const A b = other.rounded<T>();
        return [div, b](A x) -> A { return div(x, b); };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                      diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDiv);
  return guarded(kernel.name, [&] { div_tensor(kernel, ctx, out, input, other, rounding_mode); });
}

diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t other, diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDivInp);
  return guarded(kernel.name, [&] { div_tensor(kernel, ctx, input, input, other, rounding_mode); });
}

diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* other,
                            diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDivScalar);
  return guarded(kernel.name, [&] { div_scalar(kernel, ctx, out, input, other, rounding_mode); });
}

diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* other, diopiRoundMode_t rounding_mode) {
  SIMK_KERNEL(diopiDivInpScalar);
  return guarded(kernel.name, [&] { div_scalar(kernel, ctx, input, input, other, rounding_mode); });
}
