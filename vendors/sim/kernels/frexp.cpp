// The `frexp` family: Splits each element into a mantissa in (-1, -0.5] or [0.5, 1) and an int32
// power of two, input = mantissa * 2^exponent (0, inf and NaN keep their value with exponent 0).
// DIOPI: diopiFrexp (extension).
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiFrexp(diopiContextHandle_t ctx, diopiTensorHandle_t mantissa_h,
                        diopiTensorHandle_t exponent_h, diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiFrexp);
  return guarded(kernel.name, [&] {
    const View mantissa = output_view(mantissa_h, "mantissa");
    const View exponent = output_view(exponent_h, "exponent");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    // ATen raises for another mantissa or exponent dtype: declined, its CPU kernel says so.
    if (mantissa.dtype != input.dtype) {
      failf(diopiDtypeNotSupported, "mantissa is %s, input %s", dtype_name(mantissa.dtype),
            dtype_name(input.dtype));
    }
    check_dtype(exponent, dtype_bit(diopi_dtype_int32), "exponent");
    SIMK_CHECK(same_shape(mantissa, input) && same_shape(exponent, input),
               "mantissa %s and exponent %s must have input's shape %s",
               mantissa.shape_str().c_str(), exponent.shape_str().c_str(),
               input.shape_str().c_str());
    launch(kernel, ctx, mantissa, [=] {
      // Every floating dtype's values are exact in double, and so are their mantissas.
      std::vector<double> m = packed<double>(input);
      std::vector<int32_t> e(m.size(), 0);
      for (size_t i = 0; i < m.size(); ++i) {
        if (std::isfinite(m[i])) {
          int ex = 0;
          m[i] = std::frexp(m[i], &ex);
          e[i] = ex;
        }
      }
      unpack(mantissa, m);
      unpack(exponent, e);
    });
  });
}
