// The `linspace` family: Fills out with steps values evenly spaced from start to end inclusive
// (as ATen computes them, the first half from start and the second from end). DIOPI:
// diopiLinspace.
#include <diopi/prototypes.h>

#include <type_traits>

#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiLinspace(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                           const diopiScalar_t* start_s, const diopiScalar_t* end_s,
                           int64_t steps) {
  SIMK_KERNEL(diopiLinspace);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kFloatingAndInt | kIntegral, "out");
    const Scalar start = scalar_arg(start_s, "start");
    const Scalar end = scalar_arg(end_s, "end");
    SIMK_CHECK(steps >= 0, "number of steps must be non-negative");
    SIMK_CHECK(out.ndim == 1 && out.sizes[0] == steps, "out must have shape [%lld], got %s",
               static_cast<long long>(steps), out.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      dispatch<kFloatingAndInt | kIntegral>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const double a = static_cast<double>(load(convert<T>(start.as<double>())));
        const double b = static_cast<double>(load(convert<T>(end.as<double>())));
        if (steps == 1) {
          map_fill<T>(out, [&] { return load(convert<T>(a)); });
          return;
        }
        double step = (b - a) / static_cast<double>(steps - 1);
        if constexpr (std::is_same<T, float>::value) {
          step = static_cast<float>(static_cast<float>(b) - static_cast<float>(a)) /
                 static_cast<float>(steps - 1);
        }
        const int64_t halfway = steps / 2;
        int64_t i = 0;
        map_fill<T>(out, [&] {
          const int64_t k = i++;
          double v;
          if constexpr (std::is_same<T, float>::value) {
            const float fs = static_cast<float>(step);
            v = k < halfway ? static_cast<float>(a) + fs * static_cast<float>(k)
                            : static_cast<float>(b) - fs * static_cast<float>(steps - k - 1);
          } else {  // double, integers (double step) and 16-bit types (rounded once)
            v = k < halfway ? a + step * static_cast<double>(k)
                            : b - step * static_cast<double>(steps - k - 1);
          }
          return load(convert<T>(v));
        });
      });
    });
  });
}
