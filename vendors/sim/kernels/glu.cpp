// The `glu` family: gated linear unit, a * sigmoid(b) where a and b are the halves of input along
// dim. DIOPI (extension): diopiGlu.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiGlu(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t input_h, int64_t dim) {
  SIMK_KERNEL(diopiGlu);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(input.ndim > 0, "glu does not support scalars because halving size must be even");
    const int d = wrap_dim(dim, input.ndim);
    SIMK_CHECK(input.sizes[d] % 2 == 0,
               "Halving dimension must be even, but dimension %d is size %lld", d,
               static_cast<long long>(input.sizes[d]));
    View half = input;
    half.sizes[d] /= 2;
    SIMK_CHECK(same_shape(out, half), "out has shape %s, expected %s", out.shape_str().c_str(),
               half.shape_str().c_str());
    const Lines l = lines_of(half, d);
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(out.numel()));
      for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t i = 0; i < l.len; ++i)
          for (int64_t n = 0; n < l.inner; ++n) {
            const double a = x[(o * 2 * l.len + i) * l.inner + n];
            const double b = x[(o * 2 * l.len + l.len + i) * l.inner + n];
            y[(o * l.len + i) * l.inner + n] = a / (1.0 + std::exp(-b));
          }
      unpack(out, y);
    });
  });
}
