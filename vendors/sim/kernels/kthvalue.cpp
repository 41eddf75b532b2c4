// The `kthvalue` family: The k-th smallest element along dim (NaN the largest value) and its
// index; among equal values the one ATen's quickselect returns. DIOPI extension: diopiKthvalue.
#include <diopi/prototypes.h>

#include "common/select.h"

using namespace simk;

diopiError_t diopiKthvalue(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                           diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t k,
                           int64_t dim) {
  SIMK_KERNEL(diopiKthvalue);
  return guarded(kernel.name, [&] {
    constexpr uint32_t kTypes =
        kFloat32Or64 | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);
    const View in = input_view(input, "input");
    const int d = wrap_dim(dim, in.ndim);
    const int64_t n = in.ndim == 0 ? 1 : in.sizes[d];
    SIMK_CHECK(k >= 1 && k <= n, "k (%lld) is out of range for dim %d of input %s",
               static_cast<long long>(k), d, in.shape_str().c_str());
    select_lines<kTypes>(
        kernel, ctx, output_view(values, "values"), output_view(indices, "indices"), in, d,
        [k](auto* x, int64_t len, int64_t s) { return quickselect_index(x, len, s, k - 1); });
  });
}
