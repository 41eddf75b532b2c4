// The `isposinf` family: True where input is positive infinity. DIOPI: diopiIsPosInf.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

diopiError_t diopiIsPosInf(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiIsPosInf);
  return guarded(kernel.name, [&] {
    predicate(kernel, ctx, out, input,
              [](double v) { return v == std::numeric_limits<double>::infinity(); });
  });
}
