// The `zero` family: Sets every element of the tensor to zero. DIOPI: diopiZeroInp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self) {
  SIMK_KERNEL(diopiZeroInp);
  return guarded(kernel.name, [&] {
    const View v = output_view(self, "self");
    check_dtype(v, kAllTypes, "self");
    launch(kernel, ctx, v, [=] { fill_zero(v); });
  });
}
