// The `sqrt` family: Element-wise square root. DIOPI: diopiSqrt, diopiSqrtInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/unary.h"

using namespace simk;

namespace {

template <class A>
struct Sqrt {
  A operator()(A x) const { return std::sqrt(x); }
};

}  // namespace

diopiError_t diopiSqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSqrt);
  return guarded(kernel.name, [&] { unary<kFloating, Sqrt>(kernel, ctx, out, input); });
}

diopiError_t diopiSqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiSqrtInp);
  return guarded(kernel.name, [&] { unary<kFloating, Sqrt>(kernel, ctx, input, input); });
}
