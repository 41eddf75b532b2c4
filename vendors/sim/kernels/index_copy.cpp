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
    const IndexOp v =
        index_op(out_h, input_h, dim, index_h, source_h, kAllTypes, dtype_bit(diopi_dtype_int64));
    const View out = v.out, input = v.input, index = v.index, source = v.source;
    const int d = v.dim;
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
