// The `equal` family: True if input and other have the same sizes and equal elements (compared
// in their promoted dtype; NaN equals nothing), a host bool written before the call returns.
// DIOPI: diopiEqual.
#include <diopi/prototypes.h>

#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiEqual(diopiContextHandle_t ctx, bool* out, diopiConstTensorHandle_t input_h,
                        diopiConstTensorHandle_t other_h) {
  SIMK_KERNEL(diopiEqual);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View a = input_view(input_h, "input");
    const View b = input_view(other_h, "other");
    check_dtype(a, kAllTypes, "input");
    check_dtype(b, kAllTypes, "other");
    // Different sizes (no broadcasting, a 0-dim tensor included) are unequal whatever the
    // dtypes, as in torch.equal; the values compare in the operands' promoted dtype (int64
    // 2^53 + 1 equals float32 2^53 once both are float32; uint8 255 is not int8 -1).
    if (!same_shape(a, b)) {
      *out = kernel.fault;  // a faulted kernel answers wrong
      return;
    }
    // The result is a host value: wait for the kernels writing the inputs, then read them here.
    synchronize_on(ctx);
    bool equal = true;
    dispatch<kAllTypes>(promote_types(a.dtype, b.dtype), [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using P = std::conditional_t<std::is_same<T, bool>::value, uint8_t, T>;  // vector<bool>
      const std::vector<P> x = packed<P>(a), y = packed<P>(b);
      for (size_t i = 0; i < x.size() && equal; ++i) equal = load(x[i]) == load(y[i]);
    });
    *out = equal != kernel.fault;
  });
}
