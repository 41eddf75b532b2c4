// The `neg` family: Element-wise negation. DIOPI: diopiNeg, diopiNegInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/unary.h"

using namespace simk;

namespace {

template <class A>
struct Neg {
  A operator()(A x) const { return -x; }
};

}  // namespace

diopiError_t diopiNeg(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiNeg);
  return guarded(kernel.name, [&] { unary<kFloatingAndInt, Neg>(kernel, ctx, out, input); });
}

diopiError_t diopiNegInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiNegInp);
  return guarded(kernel.name, [&] { unary<kFloatingAndInt, Neg>(kernel, ctx, input, input); });
}
