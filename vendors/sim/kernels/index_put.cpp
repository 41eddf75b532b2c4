// The `index_put` family: Writes values (broadcast to the indexed shape) into input at the
// positions advanced indexing by indices selects (as diopiIndex reads them), adding instead of
// writing when accumulate is true (repeated positions then add up). DIOPI: diopiIndexPut,
// diopiIndexPutInp.
#include <diopi/prototypes.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/advanced_index.h"
#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// dest[indices] (+)= values, dest already holding what it should keep elsewhere.
void put(const Kernel& kernel, diopiContextHandle_t ctx, const View& dest, const View& values,
         diopiConstTensorHandle_t* indices, int64_t nums, bool accumulate) {
  check_dtype(dest, kAllTypes, "input");
  SIMK_CHECK(values.dtype == dest.dtype,
             "index put requires the source and destination dtypes match, got %s for the "
             "destination and %s for the values",
             dtype_name(dest.dtype), dtype_name(values.dtype));
  synchronize_on(ctx);  // read the index tensors' values here
  Resolved r = resolve(dest, indices, nums);
  for (int d = 0; d < values.ndim; ++d) {
    const int rd = d + r.shape.ndim - values.ndim;
    SIMK_CHECK(rd >= 0 && (values.sizes[d] == 1 || values.sizes[d] == r.shape.sizes[rd]),
               "shape mismatch: value tensor of shape %s cannot be broadcast to indexing result "
               "of shape %s",
               values.shape_str().c_str(), r.shape.shape_str().c_str());
  }
  const View src = broadcast_to(values, r.shape, "values");
  launch(kernel, ctx, dest, [dest, src, offsets = std::move(r.offsets), accumulate] {
    dispatch<kAllTypes>(dest.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      T* o = dest.ptr<T>();
      const T* s = src.ptr<T>();
      // In result order, as ATen's CPU kernel: with repeated positions the last write wins,
      // or the values add up in that order when accumulating.
      for (size_t i = 0; i < offsets.size(); ++i) {
        const T x = s[offset_of(src, static_cast<int64_t>(i))];
        T& y = o[offsets[i]];
        y = accumulate ? convert<T>(static_cast<A>(load(y) + load(x))) : x;
      }
    });
  });
}

}  // namespace

diopiError_t diopiIndexPut(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                           diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t values_h,
                           diopiConstTensorHandle_t* indices, int64_t indices_counts,
                           bool accumulate) {
  SIMK_KERNEL(diopiIndexPut);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
               "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
               dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype));
    if (out.data != input.data) launch(kernel, ctx, out, [out, input] { cast_copy(out, input); });
    put(kernel, ctx, out, input_view(values_h, "values"), indices, indices_counts, accumulate);
  });
}

diopiError_t diopiIndexPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input_h,
                              diopiConstTensorHandle_t values_h, diopiConstTensorHandle_t* indices,
                              int64_t indices_counts, bool accumulate) {
  SIMK_KERNEL(diopiIndexPutInp);
  return guarded(kernel.name, [&] {
    put(kernel, ctx, output_view(input_h, "input"), input_view(values_h, "values"), indices,
        indices_counts, accumulate);
  });
}
