// The `signbit` family: True where the sign bit of input is set (-0.0 and negative NaN
// included). DIOPI: diopiSignbit.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

diopiError_t diopiSignbit(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSignbit);
  return guarded(kernel.name, [&] {
    predicate(kernel, ctx, out, input, [](double v) { return std::signbit(v); });
  });
}
