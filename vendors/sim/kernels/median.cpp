// The `median` family: The lower median along dim with its index (the first NaN if any, else the
// lowest index among equal values), or of all elements (NaN if any). DIOPI extensions:
// diopiMedian, diopiMedianAll.
#include <diopi/prototypes.h>

#include "common/select.h"

using namespace simk;

namespace {
constexpr uint32_t kTypes =
    kFloat32Or64 | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);
}  // namespace

diopiError_t diopiMedian(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                         diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiMedian);
  return guarded(kernel.name, [&] {
    const View in = input_view(input, "input");
    select_lines<kTypes>(
        kernel, ctx, output_view(values, "values"), output_view(indices, "indices"), in,
        wrap_dim(dim, in.ndim),
        [](auto* x, int64_t n, int64_t s) { return median_index(x, n, s, false); });
  });
}

diopiError_t diopiMedianAll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiMedianAll);
  return guarded(kernel.name, [&] {
    median_all<kTypes>(kernel, ctx, output_view(out, "out"), input_view(input, "input"), false);
  });
}
