// The `exp` family: Element-wise natural exponential. DIOPI: diopiExp, diopiExpInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/unary.h"

using namespace simk;

namespace {

template <class A>
struct Exp {
  A operator()(A x) const { return std::exp(x); }
};

}  // namespace

diopiError_t diopiExp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiExp);
  return guarded(kernel.name, [&] { unary<kFloating, Exp>(kernel, ctx, out, input); });
}

diopiError_t diopiExpInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiExpInp);
  return guarded(kernel.name, [&] { unary<kFloating, Exp>(kernel, ctx, input, input); });
}
