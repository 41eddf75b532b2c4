// The `nanmedian` family: The lower median of the non-NaN values along dim with its index (the
// lowest among equal values; NaN when every value is), or of all elements. DIOPI extensions:
// diopiNanmedian, diopiNanmedianAll.
#include <diopi/prototypes.h>

#include "common/select.h"

using namespace simk;

namespace {
constexpr uint32_t kTypes =
    kFloat32Or64 | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);
}  // namespace

diopiError_t diopiNanmedian(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                            diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                            int64_t dim) {
  SIMK_KERNEL(diopiNanmedian);
  return guarded(kernel.name, [&] {
    const View in = input_view(input, "input");
    select_lines<kTypes>(kernel, ctx, output_view(values, "values"),
                         output_view(indices, "indices"), in, wrap_dim(dim, in.ndim),
                         [](auto* x, int64_t n, int64_t s) { return median_index(x, n, s, true); });
  });
}

diopiError_t diopiNanmedianAll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                               diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiNanmedianAll);
  return guarded(kernel.name, [&] {
    median_all<kTypes>(kernel, ctx, output_view(out, "out"), input_view(input, "input"), true);
  });
}
