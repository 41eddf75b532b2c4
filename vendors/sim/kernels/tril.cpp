// The `tril` family: Lower triangle of the last two dims (elements with column - row <=
// diagonal); the rest is zero. DIOPI: diopiTril.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/triangle.h"

using namespace simk;

diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, int64_t diagonal) {
  SIMK_KERNEL(diopiTril);
  return guarded(kernel.name, [&] {
    triangle(kernel, ctx, output_view(out, "out"), input_view(input, "input"), diagonal, false);
  });
}
