// The `sin` family: Element-wise sine. DIOPI: diopiSin, diopiSinInp.
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
struct Sin {
  A operator()(A x) const { return std::sin(x); }
};

}  // namespace

diopiError_t diopiSin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSin);
  return guarded(kernel.name, [&] { unary<kFloating, Sin>(kernel, ctx, out, input); });
}

diopiError_t diopiSinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiSin(ctx, input, input);
}
