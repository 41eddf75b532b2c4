// The `index_reduce` family: Combines source's slices along dim into input's slices the 1-D
// index names (prod, mean, amax or amin; include_self false leaves input's value out at indexed
// positions), in index order. DIOPI extension: diopiIndexReduce.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/reduce_into.h"

using namespace simk;

diopiError_t diopiIndexReduce(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                              diopiConstTensorHandle_t input_h, int64_t dim,
                              diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t source_h,
                              const char* reduce, bool include_self) {
  SIMK_KERNEL(diopiIndexReduce);
  return guarded(kernel.name, [&] {
    const Combine op = parse_combine(reduce, false);
    const IndexOp v = index_op(out_h, input_h, dim, index_h, source_h, kCombineTypes, kIndexTypes);
    const View out = v.out, input = v.input, index = v.index, source = v.source;
    const int d = v.dim;
    launch(kernel, ctx, out, [=] {
      if (out.data != input.data) cast_copy(out, input);
      const std::vector<int64_t> idx = packed<int64_t>(index);
      reduce_into<kCombineTypes>(out, source, op, include_self, [&](auto f) {
        walk_index_slices(out, source, d, idx, "index_reduce", f);
      });
    });
  });
}
