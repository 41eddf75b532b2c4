// The `arange` family: Fills out with start, start + step, ... (values computed in double, or
// int64 for integral out). DIOPI: diopiArange.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         const diopiScalar_t* start_s, const diopiScalar_t* end_s,
                         const diopiScalar_t* step_s) {
  SIMK_KERNEL(diopiArange);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kFloatingAndInt | kIntegral, "out");
    const Scalar start = scalar_arg(start_s, "start");
    const Scalar end = scalar_arg(end_s, "end");
    const Scalar step = scalar_arg(step_s, "step");
    SIMK_CHECK(step.as<double>() != 0, "step must be nonzero");
    SIMK_CHECK(out.ndim == 1, "out must be 1-D, got %s", out.shape_str().c_str());
    (void)end;  // the length is out's (the wrapper sized it from start, end and step)
    launch(kernel, ctx, out, [=] {
      dispatch<kFloatingAndInt | kIntegral>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        // As ATen's CPU arange: start + step * i in acc_type<T> (double for float32/64,
        // float for 16-bit floats, int64 for integers).
        using A = std::conditional_t<
            is_reduced_float<T>, float,
            std::conditional_t<std::is_floating_point<T>::value, double, int64_t>>;
        const A a = start.as<A>(), s = step.as<A>();
        int64_t i = 0;
        map_fill<T>(out, [&] { return static_cast<acc_t<T>>(a + s * static_cast<A>(i++)); });
      });
    });
  });
}
