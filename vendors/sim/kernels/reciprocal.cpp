// The `reciprocal` family: Element-wise reciprocal, 1 / input. DIOPI: diopiReciprocal,
// diopiReciprocalInp.
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
struct Reciprocal {
  A operator()(A x) const { return A(1) / x; }
};

}  // namespace

diopiError_t diopiReciprocal(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiReciprocal);
  return guarded(kernel.name, [&] { unary<kFloating, Reciprocal>(kernel, ctx, out, input); });
}

diopiError_t diopiReciprocalInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiReciprocal(ctx, input, input);
}
