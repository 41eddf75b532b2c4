// The `triu` family: Upper triangle of the last two dims (elements with column - row >=
// diagonal); the rest is zero. DIOPI: diopiTriu, diopiTriuInp.
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

diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, int64_t diagonal) {
  SIMK_KERNEL(diopiTriu);
  return guarded(kernel.name, [&] {
    triangle(kernel, ctx, output_view(out, "out"), input_view(input, "input"), diagonal, true);
  });
}

diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t diagonal) {
  SIMK_KERNEL(diopiTriuInp);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    triangle(kernel, ctx, v, v, diagonal, true);
  });
}
