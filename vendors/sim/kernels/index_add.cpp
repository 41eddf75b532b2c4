// The `index_add` family: Adds alpha * source's slices along dim into input's slices the 1-D
// index names, in index order (repeated indices accumulate). DIOPI extension: diopiIndexAdd.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/reduce_into.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiIndexAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                           diopiConstTensorHandle_t input_h, int64_t dim,
                           diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t source_h,
                           const diopiScalar_t* alpha_s) {
  SIMK_KERNEL(diopiIndexAdd);
  return guarded(kernel.name, [&] {
    const Scalar alpha = scalar_or(alpha_s, Scalar::of_int(1));
    const IndexOp v = index_op(out_h, input_h, dim, index_h, source_h, kCombineTypes, kIndexTypes);
    const View out = v.out, input = v.input, index = v.index, source = v.source;
    const int d = v.dim;
    launch(kernel, ctx, out, [=] {
      if (out.data != input.data) cast_copy(out, input);
      const std::vector<int64_t> idx = packed<int64_t>(index);
      dispatch<kCombineTypes>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        T* o = out.ptr<T>();
        const T* s = source.ptr<T>();
        const A a = alpha.as<A>();
        walk_index_slices(out, source, d, idx, "index_add", [&](int64_t oo, int64_t so) {
          o[oo] = convert<T>(static_cast<A>(load(o[oo]) + a * load(s[so])));
        });
      });
    });
  });
}
