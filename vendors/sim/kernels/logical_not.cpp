// The `logical_not` family: Element-wise logical NOT (zero is true); the result is bool, or 1 /
// 0 in out's dtype. DIOPI: diopiLogicalNot, diopiLogicalNotInp.
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

namespace {

void logical_not(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                 diopiConstTensorHandle_t input_h) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(out, kAllTypes, "out");
  SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    std::vector<double> x = packed<double>(input);  // the input is read before out is written
    for (double& v : x) v = v == 0.0 ? 1.0 : 0.0;
    unpack(out, x);
  });
}

}  // namespace

diopiError_t diopiLogicalNot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiLogicalNot);
  return guarded(kernel.name, [&] { logical_not(kernel, ctx, out, input); });
}

diopiError_t diopiLogicalNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  SIMK_KERNEL(diopiLogicalNotInp);
  return guarded(kernel.name, [&] { logical_not(kernel, ctx, input, input); });
}
