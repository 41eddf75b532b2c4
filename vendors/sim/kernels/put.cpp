// The `put` family: Writes (accumulate - adds) source's elements into input at the flat
// (row-major) positions index gives, negative ones counted from the end, in index order.
// DIOPI extensions: diopiPut, diopiPutInp.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/index.h"

using namespace simk;

namespace {

// out = input, then out.flat[index[k]] = (or +=) source.flat[k] for k in row-major order.
void put(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
         diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t source_h, bool accumulate) {
  const View index = input_view(index_h, "index");
  const View source = input_view(source_h, "source");
  check_dtype(out, kAllTypes, "out");
  check_dtype(index, dtype_bit(diopi_dtype_int64), "index");
  SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype && source.dtype == out.dtype,
             "out (%s), input (%s) and source (%s) must agree", out.shape_str().c_str(),
             input.shape_str().c_str(), dtype_name(source.dtype));
  SIMK_CHECK(source.numel() == index.numel(), "source has %lld elements, index %lld",
             static_cast<long long>(source.numel()), static_cast<long long>(index.numel()));
  launch(kernel, ctx, out, [=] {
    if (out.data != input.data) cast_copy(out, input);
    const std::vector<int64_t> dst = flat_offsets(out, packed<int64_t>(index), "put");
    dispatch<kAllTypes>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      const T* s = source.ptr<T>();
      T* o = out.ptr<T>();
      size_t k = 0;
      walk_pairs(source, source, [&](int64_t so, int64_t) {
        T& y = o[dst[k++]];
        y = accumulate ? convert<T>(static_cast<A>(load(y) + load(s[so]))) : s[so];
      });
    });
  });
}

}  // namespace

diopiError_t diopiPut(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t index,
                      diopiConstTensorHandle_t source, bool accumulate) {
  SIMK_KERNEL(diopiPut);
  return guarded(kernel.name, [&] {
    put(kernel, ctx, output_view(out, "out"), input_view(input, "input"), index, source,
        accumulate);
  });
}

diopiError_t diopiPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                         diopiConstTensorHandle_t index, diopiConstTensorHandle_t source,
                         bool accumulate) {
  SIMK_KERNEL(diopiPutInp);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    put(kernel, ctx, v, v, index, source, accumulate);
  });
}
