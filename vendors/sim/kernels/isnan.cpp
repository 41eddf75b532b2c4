// The `isnan` family: True where input is NaN (never for integral and bool inputs). DIOPI:
// diopiIsNan.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiIsNan(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiIsNan);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      std::vector<double> x = packed<double>(input);
      for (double& v : x) v = std::isnan(v) ? 1.0 : 0.0;
      unpack(out, x);
    });
  });
}
