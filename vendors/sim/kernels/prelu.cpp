// The `prelu` family: parametric ReLU, max(0, x) + weight * min(0, x), weight one value or one
// per channel (dim 1). DIOPI (extension): diopiPrelu.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiPrelu(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h) {
  SIMK_KERNEL(diopiPrelu);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View weight = input_view(weight_h, "weight");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    check_dtype(weight, kFloating, "weight");
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    // ATen's rule: one weight, or one per channel of dim 1 (a 0-D or 1-D input has one channel)
    const int64_t channels = input.ndim >= 2 ? input.sizes[1] : 1;
    SIMK_CHECK(weight.ndim <= 1 && (weight.numel() == 1 || weight.numel() == channels),
               "Mismatch of parameter numbers and input channel size. Found parameter numbers = "
               "%lld and channel size = %lld.",
               static_cast<long long>(weight.numel()), static_cast<long long>(channels));
    int64_t inner = 1;
    for (int d = 2; d < input.ndim; ++d) inner *= input.sizes[d];
    const bool shared = weight.numel() == 1;
    launch(kernel, ctx, out, [=] {
      std::vector<double> x = packed<double>(input);
      const std::vector<double> w = packed<double>(weight);
      for (size_t k = 0; k < x.size(); ++k) {
        const int64_t c = shared ? 0 : static_cast<int64_t>(k) / inner % channels;
        if (x[k] < 0) x[k] *= w[static_cast<size_t>(c)];
      }
      unpack(out, x);
    });
  });
}
