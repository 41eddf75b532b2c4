// The `isneginf` family: True where input is negative infinity. DIOPI: diopiIsNegInf.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

diopiError_t diopiIsNegInf(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiIsNegInf);
  return guarded(kernel.name, [&] {
    predicate(kernel, ctx, out, input,
              [](double v) { return v == -std::numeric_limits<double>::infinity(); });
  });
}
