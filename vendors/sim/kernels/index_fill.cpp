// The `index_fill` family: Fills input's slices along dim that the 1-D index names (negative
// indices count from the end) with a scalar or a 0-dim tensor value. DIOPI: diopiIndexFillScalar,
// diopiIndexFill, diopiIndexFillInpScalar, diopiIndexFillInp.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/fill_value.h"
#include "common/reduce_into.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// out = input, then every slice idx[i] of out along dim is value (a scalar, or the single
// element of a 0-dim tensor read on the stream). `out` may be `input`.
void index_fill(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
                int64_t dim, diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t value_h,
                const diopiScalar_t* value_s) {
  const View index = input_view(index_h, "index");
  check_dtype(out, kAllTypes, "out");
  check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
  SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype, "out (%s) must match input (%s)",
             out.shape_str().c_str(), input.shape_str().c_str());
  SIMK_CHECK(index.ndim <= 1, "index must be 0-D or 1-D, got %s", index.shape_str().c_str());
  const int d = out.ndim == 0 ? 0 : wrap_dim(dim, out.ndim);
  const FillValue value = FillValue::of(value_h, value_s);
  launch(kernel, ctx, out, [=] {
    if (out.data != input.data) cast_copy(out, input);
    std::vector<int64_t> idx = packed<int64_t>(index);
    static const int64_t kOne[1] = {1};
    const View o = out.ndim == 0 ? contiguous_view(out.data, out.dtype, kOne, 1) : out;
    const int64_t size = o.sizes[d];
    for (int64_t& i : idx) {  // ATen's index_fill takes [-size, size)
      check_index(i < 0 ? i + size : i, size, "index_fill");
      if (i < 0) i += size;
    }
    dispatch<kAllTypes>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const acc_t<T> fill = load(value.template get<T>());
      for (const int64_t i : idx) map_fill<T>(select(o, d, i), [fill] { return fill; });
    });
  });
}

}  // namespace

diopiError_t diopiIndexFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, int64_t dim,
                                  diopiConstTensorHandle_t index, const diopiScalar_t* value) {
  SIMK_KERNEL(diopiIndexFillScalar);
  return guarded(kernel.name, [&] {
    index_fill(kernel, ctx, output_view(out, "out"), input_view(input, "input"), dim, index,
               nullptr, value);
  });
}

diopiError_t diopiIndexFill(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, int64_t dim,
                            diopiConstTensorHandle_t index, diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiIndexFill);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(value != nullptr, "value is a null tensor");
    index_fill(kernel, ctx, output_view(out, "out"), input_view(input, "input"), dim, index, value,
               nullptr);
  });
}

diopiError_t diopiIndexFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                     int64_t dim, diopiConstTensorHandle_t index,
                                     const diopiScalar_t* value) {
  SIMK_KERNEL(diopiIndexFillInpScalar);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    index_fill(kernel, ctx, v, v, dim, index, nullptr, value);
  });
}

diopiError_t diopiIndexFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t dim,
                               diopiConstTensorHandle_t index, diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiIndexFillInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(value != nullptr, "value is a null tensor");
    const View v = output_view(input, "input");
    index_fill(kernel, ctx, v, v, dim, index, value, nullptr);
  });
}
