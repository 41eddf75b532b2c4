// The `fill` family: Sets every element of input to value. DIOPI: diopiFill; DIOPI extension:
// diopiFillTensor (the value a 0-dim tensor, read on the stream).
#include <diopi/prototypes.h>

#include <algorithm>

#include "common/elementwise.h"
#include "common/fill_value.h"
#include "common/scalar.h"

using namespace simk;

namespace {

void fill(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t input,
          diopiConstTensorHandle_t value_h, const diopiScalar_t* value_s) {
  const View t = output_view(input, "input");
  check_dtype(t, kAllTypes, "input");
  const FillValue v = FillValue::of(value_h, value_s);
  launch(kernel, ctx, t, [t, v] {
    dispatch<kAllTypes>(t.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const acc_t<T> x = v.from_tensor ? load(v.template get<T>()) : v.scalar.rounded<T>();
      map_fill<T>(t, [x] { return x; });
    });
  });
}

}  // namespace

diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                       const diopiScalar_t* value) {
  SIMK_KERNEL(diopiFill);
  return guarded(kernel.name, [&] { fill(kernel, ctx, input, nullptr, value); });
}

diopiError_t diopiFillTensor(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                             diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiFillTensor);
  return guarded(kernel.name, [&] { fill(kernel, ctx, input, value, nullptr); });
}
