// The `fill` family: Sets every element of input to value. DIOPI: diopiFill.
#include <diopi/prototypes.h>

#include <algorithm>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiFill(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                       const diopiScalar_t* value) {
  SIMK_KERNEL(diopiFill);
  return guarded(kernel.name, [&] {
    const View t = output_view(input, "input");
    check_dtype(t, kAllTypes, "input");
    const Scalar v = scalar_arg(value, "value");
    launch(kernel, ctx, t, [t, v] {
      dispatch<kAllTypes>(t.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const acc_t<T> x = v.rounded<T>();
        map_fill<T>(t, [x] { return x; });
      });
    });
  });
}
