// The `masked_fill` family: Replaces the elements of input where mask (broadcast to input) is
// true by value. DIOPI: diopiMaskedFill, diopiMaskedFillInp, diopiMaskedFillScalar,
// diopiMaskedFillInpScalar.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/fill_value.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// out = mask ? value : input, mask and input broadcast to out; value is a scalar or the single
// element of a 0-dim tensor (read on the stream). `out` may be `input`.
void masked_fill(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
                 diopiConstTensorHandle_t mask_h, diopiConstTensorHandle_t value_h,
                 const diopiScalar_t* value_s) {
  const View mask = input_view(mask_h, "mask");
  check_dtype(out, kAllTypes, "out");
  check_dtype(input, kAllTypes, "input");
  check_dtype(mask, dtype_bit(diopi_dtype_bool) | dtype_bit(diopi_dtype_uint8), "mask");
  broadcast_to(input, out, "input");
  broadcast_to(mask, out, "mask");
  const FillValue value = FillValue::of(value_h, value_s);
  launch(kernel, ctx, out, [=] {
    dispatch<kAllTypes>(out.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const acc_t<T> fill = load(value.template get<T>());
      Buffer sm, si;
      const View vm = broadcast_to(as_dtype(mask, diopi_dtype_bool, sm), out, "mask");
      const View vi = broadcast_to(as_dtype(input, out.dtype, si), out, "input");
      const View* ins[2] = {&vm, &vi};
      map<T, bool, T>(out, ins, [fill](bool m, acc_t<T> x) { return m ? fill : x; });
    });
  });
}

}  // namespace

diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                             diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiMaskedFill);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(value != nullptr, "value is a null tensor");
    masked_fill(kernel, ctx, output_view(out, "out"), input_view(input, "input"), mask, value,
                nullptr);
  });
}

diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                diopiConstTensorHandle_t mask, diopiConstTensorHandle_t value) {
  SIMK_KERNEL(diopiMaskedFillInp);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(value != nullptr, "value is a null tensor");
    const View v = output_view(input, "input");
    masked_fill(kernel, ctx, v, v, mask, value, nullptr);
  });
}

diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mask,
                                   const diopiScalar_t* value) {
  SIMK_KERNEL(diopiMaskedFillScalar);
  return guarded(kernel.name, [&] {
    masked_fill(kernel, ctx, output_view(out, "out"), input_view(input, "input"), mask, nullptr,
                value);
  });
}

diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                      diopiConstTensorHandle_t mask, const diopiScalar_t* value) {
  SIMK_KERNEL(diopiMaskedFillInpScalar);
  return guarded(kernel.name, [&] {
    const View v = output_view(input, "input");
    masked_fill(kernel, ctx, v, v, mask, nullptr, value);
  });
}
