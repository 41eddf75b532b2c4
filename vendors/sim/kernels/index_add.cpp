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
    constexpr uint32_t kTypes =
        kFloating | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View index = input_view(index_h, "index");
    const View source = input_view(source_h, "source");
    const Scalar alpha = scalar_or(alpha_s, Scalar::of_int(1));
    check_dtype(out, kTypes, "out");
    check_dtype(index, kIndexTypes, "index");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype, "out (%s) must match input (%s)",
               out.shape_str().c_str(), input.shape_str().c_str());
    const int d = out.ndim == 0 ? 0 : wrap_dim(dim, out.ndim);
    check_index_source(out, source, index, d);
    launch(kernel, ctx, out, [=] {
      if (out.data != input.data) cast_copy(out, input);
      const std::vector<int64_t> idx = packed<int64_t>(index);
      dispatch<kTypes>(out.dtype, [&](auto tag) {
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
