// The `abs` family: Element-wise absolute value. DIOPI: diopiAbs, diopiAbsInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

template <class A>
struct Abs {
  A operator()(A x) const {
    if constexpr (std::is_floating_point<A>::value) {
      return std::fabs(x);
    } else {
      return x < 0 ? -x : x;
    }
  }
};

}  // namespace

diopiError_t diopiAbs(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiAbs);
  return guarded(kernel.name, [&] { unary<kFloatingAndInt, Abs>(kernel, ctx, out, input); });
}

// The DIOPI in-place functions of ops whose out-of-place kernel already handles out == input
// (elementwise() reads each element before writing it): they run that kernel on input.

diopiError_t diopiAbsInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiAbs(ctx, input, input);
}
