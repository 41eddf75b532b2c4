// The `channel_shuffle` family: splits dim 1 into groups and transposes them,
// [N, g, C / g, ...] -> [N, C / g, g, ...]. DIOPI (extension): diopiChannelShuffle.
//
// A pure permutation of channels: raw element copies, every dtype.
#include <diopi/prototypes.h>

#include "common/gather_elements.h"

using namespace simk;

diopiError_t diopiChannelShuffle(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                 diopiConstTensorHandle_t input_h, int64_t groups) {
  SIMK_KERNEL(diopiChannelShuffle);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    // ATen's checks (channel_shuffle raises the same on the CPU)
    SIMK_CHECK(input.ndim > 2, "channel_shuffle expects an input with more than 2 dims, got %s",
               input.shape_str().c_str());
    SIMK_CHECK(groups > 0, "number of groups to divide channels in must be positive, got %lld",
               static_cast<long long>(groups));
    const int64_t channels = input.sizes[1];
    SIMK_CHECK(channels % groups == 0,
               "number of channels (%lld) must be divisible by the number of groups (%lld)",
               static_cast<long long>(channels), static_cast<long long>(groups));
    const int64_t per_group = channels / groups;
    launch(kernel, ctx, out, [=] {
      gather_elements(out, input, [&](const int64_t* idx, int64_t) {
        // output channel c = i * groups + g holds input channel g * per_group + i
        const int64_t c = idx[1];
        int64_t off = (c % groups * per_group + c / groups) * input.strides[1];
        for (int d = 0; d < input.ndim; ++d)
          if (d != 1) off += idx[d] * input.strides[d];
        return off;
      });
    });
  });
}
