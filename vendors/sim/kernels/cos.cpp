// The `cos` family: Element-wise cosine. DIOPI: diopiCos, diopiCosInp.
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
struct Cos {
  A operator()(A x) const { return std::cos(x); }
};

}  // namespace

diopiError_t diopiCos(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiCos);
  return guarded(kernel.name, [&] { unary<kFloating, Cos>(kernel, ctx, out, input); });
}

diopiError_t diopiCosInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiCos(ctx, input, input);
}
