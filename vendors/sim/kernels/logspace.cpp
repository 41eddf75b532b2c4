// The `logspace` family: Fills out with base ** x for steps exponents x evenly spaced from start
// to end inclusive (as ATen computes them: the first half from start, the second from end, in
// out's dtype). DIOPI extension: diopiLogspace.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiLogspace(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                           const diopiScalar_t* start_s, const diopiScalar_t* end_s, int64_t steps,
                           double base) {
  SIMK_KERNEL(diopiLogspace);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kFloat32Or64, "out");
    const Scalar start = scalar_arg(start_s, "start");
    const Scalar end = scalar_arg(end_s, "end");
    SIMK_CHECK(steps >= 0, "number of steps must be non-negative");
    SIMK_CHECK(out.ndim == 1 && out.sizes[0] == steps, "out must have shape [%lld], got %s",
               static_cast<long long>(steps), out.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      dispatch<kFloat32Or64>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const T a = start.as<T>(), b = end.as<T>();
        if (steps == 1) {  // ATen: base ** start in double
          map_fill<T>(out, [&] { return static_cast<T>(std::pow(base, start.as<double>())); });
          return;
        }
        const T step = (b - a) / static_cast<T>(steps - 1);
        const int64_t halfway = steps / 2;
        int64_t i = 0;
        map_fill<T>(out, [&] {
          const int64_t k = i++;
          const T x =
              k < halfway ? a + step * static_cast<T>(k) : b - step * static_cast<T>(steps - k - 1);
          return static_cast<T>(std::pow(base, x));
        });
      });
    });
  });
}
