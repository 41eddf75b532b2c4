// The `copy` family: Copies src into dest on the device, converting dtype and honouring both
// layouts. DIOPI: diopiCopyInp, diopiCastDtype.
#include <diopi/prototypes.h>

#include <algorithm>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// dst = src converted and broadcast to dst's shape (the copy_ / to(dtype) of the runtime).
void copy_kernel(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t dst_h,
                 diopiConstTensorHandle_t src_h, const char* dst_name, const char* src_name) {
  const View dst = output_view(dst_h, dst_name);
  const View src = input_view(src_h, src_name);
  check_dtype(dst, kAllTypes, dst_name);
  check_dtype(src, kAllTypes, src_name);
  broadcast_to(src, dst, src_name);
  launch(kernel, ctx, dst, [dst, src] {
    // A source that shares memory with dst (other than being dst itself) is read completely
    // before anything is written.
    const bool identical = src.data == dst.data && same_shape(src, dst) && src.dtype == dst.dtype &&
                           std::equal(src.strides, src.strides + src.ndim, dst.strides);
    if (identical) return;
    if (may_overlap(dst, src)) {
      Buffer staged(src.dtype, src.sizes, src.ndim);
      cast_copy(staged.view(), src);
      cast_copy(dst, staged.view());
      return;
    }
    cast_copy(dst, src);
  });
}

}  // namespace

diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src,
                          diopiTensorHandle_t dest) {
  SIMK_KERNEL(diopiCopyInp);
  return guarded(kernel.name, [&] { copy_kernel(kernel, ctx, dest, src, "dest", "src"); });
}

diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiCastDtype);
  return guarded(kernel.name, [&] { copy_kernel(kernel, ctx, out, input, "out", "input"); });
}
