// The `rsqrt` family: Element-wise reciprocal square root, 1 / sqrt(input). DIOPI: diopiRsqrt,
// diopiRsqrtInp.
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
struct Rsqrt {
  A operator()(A x) const { return A(1) / std::sqrt(x); }
};

}  // namespace

diopiError_t diopiRsqrt(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiRsqrt);
  return guarded(kernel.name, [&] { unary<kFloating, Rsqrt>(kernel, ctx, out, input); });
}

diopiError_t diopiRsqrtInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  return diopiRsqrt(ctx, input, input);
}
