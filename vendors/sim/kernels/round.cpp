// The `round` family: Element-wise rounding to the nearest integer, halves to even; with
// decimals, to that many decimal places (negative counts round to tens, hundreds, ...). DIOPI:
// diopiRound, diopiRoundInp, diopiRoundDecimals.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Round, kFloating, std::nearbyint(x))

// ATen's round.decimals, in the dtype's own arithmetic (float32 / float64 only: ATen rounds
// every operation of a 16-bit type).
diopiError_t diopiRoundDecimals(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, int64_t decimals) {
  SIMK_KERNEL(diopiRoundDecimals);
  return guarded(kernel.name, [&] {
    const bool neg = decimals < 0;
    const double ten_pow = std::pow(10, static_cast<double>(neg ? -decimals : decimals));
    elementwise<kFloat32Or64>(
        kernel, ctx, out,
        [neg, ten_pow](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A p = static_cast<A>(ten_pow);
          return [neg, p](A x) -> A {
            return neg ? std::nearbyint(x / p) * p : std::nearbyint(x * p) / p;
          };
        },
        In{input, "input"});
  });
}
