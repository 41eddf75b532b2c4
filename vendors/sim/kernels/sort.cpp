// The `sort` family: Sorts along dim stably (equal elements keep their order, NaN sorts as the
// largest), with each element's source index; a non-stable request is served stably. DIOPI:
// diopiSort.
#include "common/sort.h"

#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                       diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim,
                       bool descending, const bool* pStable) {
  SIMK_KERNEL(diopiSort);
  (void)pStable;  // always stable: a stable order is also a valid unstable one
  return guarded(kernel.name, [&] {
    const View v = output_view(values, "values");
    const View ix = output_view(indices, "indices");
    const View in = input_view(input, "input");
    check_dtype(in, kFloatingAndInt | kIntegral, "input");
    check_dtype(v, kFloatingAndInt | kIntegral, "values");
    check_dtype(ix, dtype_bit(diopi_dtype_int64) | dtype_bit(diopi_dtype_int32), "indices");
    const int d = wrap_dim(dim, in.ndim);
    const int64_t len = in.ndim == 0 ? 1 : in.sizes[d];
    check_selected(v, in, d, len, "values");
    check_selected(ix, in, d, len, "indices");
    launch(kernel, ctx, v, [=] { sort_lines(v, ix, in, d, descending, len); });
  });
}
