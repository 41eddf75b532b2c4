// The `topk` family: The k largest (or smallest) elements along dim and their indices, in sorted
// order when sorted is true (equal values keep the lower index first). DIOPI: diopiTopk.
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
#include "common/sort.h"

using namespace simk;

diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                       diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t k,
                       int64_t dim, bool largest, bool sorted) {
  SIMK_KERNEL(diopiTopk);
  (void)sorted;  // the k elements always come in sorted order
  return guarded(kernel.name, [&] {
    const View v = output_view(values, "values");
    const View ix = output_view(indices, "indices");
    const View in = input_view(input, "input");
    check_dtype(in, kFloatingAndInt | kIntegral, "input");
    check_dtype(v, kFloatingAndInt | kIntegral, "values");
    check_dtype(ix, dtype_bit(diopi_dtype_int64) | dtype_bit(diopi_dtype_int32), "indices");
    const int d = wrap_dim(dim, in.ndim);
    const int64_t len = in.ndim == 0 ? 1 : in.sizes[d];
    SIMK_CHECK(k >= 0 && k <= len, "selected index k (%lld) out of range for dim %d of size %lld",
               static_cast<long long>(k), d, static_cast<long long>(len));
    check_selected(v, in, d, k, "values");
    check_selected(ix, in, d, k, "indices");
    launch(kernel, ctx, v, [=] { sort_lines(v, ix, in, d, largest, k); });
  });
}
