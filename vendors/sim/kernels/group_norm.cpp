// The `group_norm` family: input [N, C, *] normalized over each sample's groups of C / G
// channels, then a per-channel affine. Statistics (biased variance) and the output in double,
// each rounded once to the tensors' dtype. DIOPI: diopiGroupNorm.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/optional_view.h"

using namespace simk;

diopiError_t diopiGroupNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiTensorHandle_t save_mean_h, diopiTensorHandle_t save_invstd_h,
                            diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h,
                            diopiConstTensorHandle_t bias_h, int64_t num_groups, double eps) {
  SIMK_KERNEL(diopiGroupNorm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(same_shape(out, input) && out.dtype == input.dtype,
               "out (%s %s) must match input (%s %s)", dtype_name(out.dtype),
               out.shape_str().c_str(), dtype_name(input.dtype), input.shape_str().c_str());
    SIMK_CHECK(input.ndim >= 2, "input must be [N, C, *], got %s", input.shape_str().c_str());
    const int64_t n = input.sizes[0], c = input.sizes[1];
    SIMK_CHECK(num_groups > 0 && c % num_groups == 0,
               "num_groups %lld must divide the %lld channels", static_cast<long long>(num_groups),
               static_cast<long long>(c));
    const int64_t hxw = n * c == 0 ? 0 : input.numel() / (n * c);
    const OptionalView mean = optional_output(save_mean_h, "save_mean");
    const OptionalView invstd = optional_output(save_invstd_h, "save_invstd");
    const OptionalView weight = optional_input(weight_h, "weight");
    const OptionalView bias = optional_input(bias_h, "bias");
    for (const OptionalView* p : {&mean, &invstd, &weight, &bias}) {
      // ATen keeps float statistics for a 16-bit input with float parameters: not this kernel.
      if (p->present && p->v.dtype != input.dtype)
        failf(diopiNoImplement, "%s has dtype %s, input %s: mixed dtypes are not implemented",
              p == &mean     ? "save_mean"
              : p == &invstd ? "save_invstd"
              : p == &weight ? "weight"
                             : "bias",
              dtype_name(p->v.dtype), dtype_name(input.dtype));
    }
    SIMK_CHECK(!weight.present || weight.v.numel() == c, "weight must have %lld elements",
               static_cast<long long>(c));
    SIMK_CHECK(!bias.present || bias.v.numel() == c, "bias must have %lld elements",
               static_cast<long long>(c));
    SIMK_CHECK(!mean.present || mean.v.numel() == n * num_groups,
               "save_mean must have N * num_groups elements");
    SIMK_CHECK(!invstd.present || invstd.v.numel() == n * num_groups,
               "save_invstd must have N * num_groups elements");
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<double> w = packed_or(weight, c, 1.0);
      const std::vector<double> b = packed_or(bias, c, 0.0);
      const int64_t per_group = c / num_groups;
      const int64_t len = per_group * hxw;  // elements of one (sample, group)
      std::vector<double> y(x.size()), mu(static_cast<size_t>(n * num_groups)), rs(mu.size());
      for (int64_t r = 0; r < n * num_groups; ++r) {
        const double* xr = x.data() + r * len;
        double sum = 0;
        for (int64_t j = 0; j < len; ++j) sum += xr[j];
        const double m = len > 0 ? sum / static_cast<double>(len) : 0.0;
        double sq = 0;
        for (int64_t j = 0; j < len; ++j) sq += (xr[j] - m) * (xr[j] - m);
        const double var = len > 0 ? sq / static_cast<double>(len) : 0.0;
        const double rstd = 1.0 / std::sqrt(var + eps);
        mu[r] = m;
        rs[r] = rstd;
        const int64_t c0 = (r % num_groups) * per_group;
        double* yr = y.data() + r * len;
        for (int64_t j = 0; j < len; ++j) {
          const int64_t ch = c0 + j / hxw;
          yr[j] = (xr[j] - m) * rstd * w[ch] + b[ch];
        }
      }
      unpack(out, y);
      if (mean.present) unpack(mean.v, mu);
      if (invstd.present) unpack(invstd.v, rs);
    });
  });
}
