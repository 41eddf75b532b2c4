// The `log` family: Element-wise natural logarithm. DIOPI: diopiLog, diopiLogInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdlib>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/unary.h"

using namespace simk;

namespace {

template <class A>
struct Log {
  A operator()(A x) const { return std::log(x); }
};

}  // namespace

diopiError_t diopiLog(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiLog);
  return guarded(kernel.name, [&] { unary<kFloating, Log>(kernel, ctx, out, input); });
}

diopiError_t diopiLogInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiLogInp);
  return guarded(kernel.name, [&] { unary<kFloating, Log>(kernel, ctx, input, input); });
}
