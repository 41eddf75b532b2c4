// The `logcumsumexp` family: log(cumsum(exp(input))) along dim, computed stably (running
// maximum), in the input's dtype. DIOPI extension: diopiLogcumsumexp.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/reduce_dim.h"

using namespace simk;

diopiError_t diopiLogcumsumexp(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                               diopiConstTensorHandle_t input_h, int64_t dim) {
  SIMK_KERNEL(diopiLogcumsumexp);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloat32Or64, "input");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
               "out (%s, %s) must match input (%s, %s)", out.shape_str().c_str(),
               dtype_name(out.dtype), input.shape_str().c_str(), dtype_name(input.dtype));
    const int d = wrap_dim(dim, input.ndim);
    launch(kernel, ctx, out, [=] {
      // ATen accumulates in double; log(exp(a) + exp(b)) as log1p(exp(min - max)) + max, and an
      // equal pair of infinities as the value itself.
      std::vector<double> x = packed<double>(input);
      scan_lines(x, input, d, -std::numeric_limits<double>::infinity(), [](double acc, double v) {
        const double lo = std::isnan(acc) ? acc : std::min(v, acc);
        const double hi = std::isnan(acc) ? acc : std::max(v, acc);
        if (lo != hi || std::isfinite(lo)) return std::log1p(std::exp(lo - hi)) + hi;
        return v;
      });
      unpack(out, x);
    });
  });
}
