// The `take` family: Elements of input at the flat (row-major) positions index gives, negative
// ones counted from the end; index's shape. DIOPI extension: diopiTake.
#include <diopi/prototypes.h>

#include <cstring>
#include <vector>

#include "common/elementwise.h"
#include "common/index.h"

using namespace simk;

diopiError_t diopiTake(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t index_h) {
  SIMK_KERNEL(diopiTake);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View index = input_view(index_h, "index");
    check_dtype(out, kAllTypes, "out");
    check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
    SIMK_CHECK(out.dtype == input.dtype && same_shape(out, index),
               "out (%s, %s) must have index's shape %s and input's dtype %s",
               out.shape_str().c_str(), dtype_name(out.dtype), index.shape_str().c_str(),
               dtype_name(input.dtype));
    launch(kernel, ctx, out, [=] {
      const std::vector<int64_t> idx = packed<int64_t>(index);
      const std::vector<int64_t> src = flat_offsets(input, idx, "take");
      const int64_t size = out.itemsize();
      int64_t k = 0;
      walk_pairs(out, out, [&](int64_t oo, int64_t) {
        std::memcpy(out.data + oo * size, input.data + src[static_cast<size_t>(k++)] * size,
                    static_cast<size_t>(size));
      });
    });
  });
}
