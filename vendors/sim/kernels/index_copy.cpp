// The `index_copy` family: Copies source's slices along dim into input's slices the 1-D index
// names, in index order (the last of repeated indices wins). DIOPI extension: diopiIndexCopy.
#include <diopi/prototypes.h>

#include <cstring>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_into.h"

using namespace simk;

diopiError_t diopiIndexCopy(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t input_h, int64_t dim,
                            diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t source_h) {
  SIMK_KERNEL(diopiIndexCopy);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View index = input_view(index_h, "index");
    const View source = input_view(source_h, "source");
    check_dtype(out, kAllTypes, "out");
    check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype, "out (%s) must match input (%s)",
               out.shape_str().c_str(), input.shape_str().c_str());
    const int d = out.ndim == 0 ? 0 : wrap_dim(dim, out.ndim);
    check_index_source(out, source, index, d);
    launch(kernel, ctx, out, [=] {
      if (out.data != input.data) cast_copy(out, input);
      const std::vector<int64_t> idx = packed<int64_t>(index);
      const int64_t size = out.itemsize();
      walk_index_slices(out, source, d, idx, "index_copy", [&](int64_t oo, int64_t so) {
        std::memcpy(out.data + oo * size, source.data + so * size, static_cast<size_t>(size));
      });
    });
  });
}
