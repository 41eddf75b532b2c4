// The `where` family: Selects input where condition is true, other elsewhere, with broadcasting.
// DIOPI: diopiWhere.
#include <diopi/prototypes.h>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t condition_h, diopiConstTensorHandle_t input_h,
                        diopiConstTensorHandle_t other_h) {
  SIMK_KERNEL(diopiWhere);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View cond = input_view(condition_h, "condition");
    const View a = input_view(input_h, "input");
    const View b = input_view(other_h, "other");
    check_dtype(out, kAllTypes, "out");
    check_dtype(cond, dtype_bit(diopi_dtype_bool) | dtype_bit(diopi_dtype_uint8), "condition");
    check_dtype(a, kAllTypes, "input");
    check_dtype(b, kAllTypes, "other");
    broadcast_to(cond, out, "condition");
    broadcast_to(a, out, "input");
    broadcast_to(b, out, "other");
    launch(kernel, ctx, out, [=] {
      dispatch<kAllTypes>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        Buffer sc, sa, sb;
        const View vc = broadcast_to(as_dtype(cond, diopi_dtype_bool, sc), out, "condition");
        const View va = broadcast_to(as_dtype(a, out.dtype, sa), out, "input");
        const View vb = broadcast_to(as_dtype(b, out.dtype, sb), out, "other");
        const View* ins[3] = {&vc, &va, &vb};
        map<T, bool, T, T>(out, ins, [](bool c, acc_t<T> x, acc_t<T> y) { return c ? x : y; });
      });
    });
  });
}
