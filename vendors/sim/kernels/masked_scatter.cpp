// The `masked_scatter` family: out = input with the elements where mask (broadcast to input) is
// true replaced, in row-major order, by consecutive elements of source (which needs at least as
// many elements as mask has true ones); the gradient of masked_select. DIOPI:
// diopiMaskedScatter.
#include <diopi/prototypes.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

// out = input, then the elements where mask is true take source's elements in row-major order.
diopiError_t diopiMaskedScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t mask_h,
                                diopiConstTensorHandle_t source_h) {
  SIMK_KERNEL(diopiMaskedScatter);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View source = input_view(source_h, "source");
    check_dtype(out, kAllTypes, "out");
    check_dtype(input_view(mask_h, "mask"), dtype_bit(diopi_dtype_bool), "mask");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
               "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
               dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype));
    SIMK_CHECK(source.dtype == out.dtype, "source has dtype %s, input %s", dtype_name(source.dtype),
               dtype_name(out.dtype));
    const View mask = broadcast_to(input_view(mask_h, "mask"), out, "mask");
    synchronize_on(ctx);  // how many elements mask selects decides whether source has enough
    const int64_t n = out.numel();
    int64_t selected = 0;
    for (int64_t i = 0; i < n; ++i) selected += *(mask.data + offset_of(mask, i)) != 0;
    SIMK_CHECK(selected <= source.numel(), "mask selects %lld elements but source has only %lld",
               static_cast<long long>(selected), static_cast<long long>(source.numel()));
    launch(kernel, ctx, out, [out, input, mask, source, n] {
      if (out.data != input.data) cast_copy(out, input);
      const int64_t isz = out.itemsize();
      int64_t k = 0;
      for (int64_t i = 0; i < n; ++i) {
        if (*(mask.data + offset_of(mask, i)) == 0) continue;
        std::memcpy(out.data + offset_of(out, i) * isz, source.data + offset_of(source, k) * isz,
                    static_cast<size_t>(isz));
        ++k;
      }
    });
  });
}
