// The `batch_norm` family: Batch normalization over dim 1 (training statistics, or the running
// ones in evaluation); training updates running_mean and running_var in place. DIOPI:
// diopiBatchNorm, diopiBatchNormBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/elementwise.h"
#include "common/optional_view.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

struct BatchShape {
  int64_t batch = 1, channels = 1, spatial = 1;
};

BatchShape batch_shape(const View& input) {
  SIMK_CHECK(input.ndim >= 2, "input must have at least 2 dims, got %s", input.shape_str().c_str());
  BatchShape s;
  s.batch = input.sizes[0];
  s.channels = input.sizes[1];
  for (int d = 2; d < input.ndim; ++d) s.spatial *= input.sizes[d];
  return s;
}

void check_channels(const OptionalView& p, int64_t c, const char* what) {
  SIMK_CHECK(!p.present || p.v.numel() == c, "%s has %lld elements, expected %lld (channels)", what,
             static_cast<long long>(p.present ? p.v.numel() : 0), static_cast<long long>(c));
}

// x[n, c, s] of a contiguous [batch, channels, spatial] buffer.
inline int64_t at(const BatchShape& s, int64_t n, int64_t c, int64_t i) {
  return (n * s.channels + c) * s.spatial + i;
}

}  // namespace

diopiError_t diopiBatchNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiTensorHandle_t save_mean_h, diopiTensorHandle_t save_invstd_h,
                            diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h,
                            diopiConstTensorHandle_t bias_h, diopiTensorHandle_t running_mean_h,
                            diopiTensorHandle_t running_var_h, bool training, double momentum,
                            double eps) {
  SIMK_KERNEL(diopiBatchNorm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(same_shape(out, input), "out has shape %s but input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    const BatchShape s = batch_shape(input);
    const OptionalView save_mean = optional_output(save_mean_h, "save_mean");
    const OptionalView save_invstd = optional_output(save_invstd_h, "save_invstd");
    const OptionalView weight = optional_input(weight_h, "weight");
    const OptionalView bias = optional_input(bias_h, "bias");
    const OptionalView rmean = optional_output(running_mean_h, "running_mean");
    const OptionalView rvar = optional_output(running_var_h, "running_var");
    check_channels(weight, s.channels, "weight");
    check_channels(bias, s.channels, "bias");
    check_channels(rmean, s.channels, "running_mean");
    check_channels(rvar, s.channels, "running_var");
    SIMK_CHECK(rmean.present == rvar.present, "running_mean and running_var come together");
    SIMK_CHECK(training || rmean.present, "evaluation needs running_mean and running_var");
    const int64_t count = s.batch * s.spatial;
    SIMK_CHECK(!training || count > 1 || s.channels == 0,
               "expected more than 1 value per channel when training, got input %s",
               input.shape_str().c_str());
    // save_mean / save_invstd: [channels], or empty (ATen's eval mode gives empty tensors).
    const bool save = save_mean.present && save_invstd.present &&
                      save_mean.v.numel() == s.channels && save_invstd.v.numel() == s.channels;
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<double> w = packed_or(weight, s.channels, 1.0);
      const std::vector<double> b = packed_or(bias, s.channels, 0.0);
      std::vector<double> rm = packed_or(rmean, s.channels, 0.0);
      std::vector<double> rv = packed_or(rvar, s.channels, 1.0);
      std::vector<double> mean(s.channels), invstd(s.channels), y(x.size());
      for (int64_t c = 0; c < s.channels; ++c) {
        if (training) {
          double sum = 0;
          for (int64_t n = 0; n < s.batch; ++n)
            for (int64_t i = 0; i < s.spatial; ++i) sum += x[at(s, n, c, i)];
          const double m = sum / count;
          double sq = 0;
          for (int64_t n = 0; n < s.batch; ++n)
            for (int64_t i = 0; i < s.spatial; ++i) {
              const double d = x[at(s, n, c, i)] - m;
              sq += d * d;
            }
          mean[c] = m;
          invstd[c] = 1.0 / std::sqrt(sq / count + eps);
          if (rmean.present) {
            rm[c] = (1 - momentum) * rm[c] + momentum * m;
            rv[c] = (1 - momentum) * rv[c] + momentum * (sq / (count - 1));
          }
        } else {
          mean[c] = rm[c];
          invstd[c] = 1.0 / std::sqrt(rv[c] + eps);
        }
        for (int64_t n = 0; n < s.batch; ++n)
          for (int64_t i = 0; i < s.spatial; ++i) {
            const int64_t k = at(s, n, c, i);
            y[k] = (x[k] - mean[c]) * invstd[c] * w[c] + b[c];
          }
      }
      unpack(out, y);
      if (save) {
        unpack(save_mean.v, mean);
        unpack(save_invstd.v, invstd);
      }
      if (training && rmean.present) {
        unpack(rmean.v, rm);
        unpack(rvar.v, rv);
      }
    });
  });
}

diopiError_t diopiBatchNormBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h, diopiTensorHandle_t grad_weight_h,
    diopiTensorHandle_t grad_bias_h, diopiConstTensorHandle_t grad_output_h,
    diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h,
    diopiConstTensorHandle_t running_mean_h, diopiConstTensorHandle_t running_var_h,
    diopiConstTensorHandle_t save_mean_h, diopiConstTensorHandle_t save_invstd_h, bool training,
    double eps) {
  SIMK_KERNEL(diopiBatchNormBackward);
  return guarded(kernel.name, [&] {
    const OptionalView gi = optional_output(grad_input_h, "grad_input");
    const OptionalView gw = optional_output(grad_weight_h, "grad_weight");
    const OptionalView gb = optional_output(grad_bias_h, "grad_bias");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    check_dtype(go, kFloating, "grad_output");
    check_dtype(input, kFloating, "input");
    const BatchShape s = batch_shape(input);
    SIMK_CHECK(same_shape(go, input), "grad_output has shape %s but input %s",
               go.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(!gi.present || same_shape(gi.v, input), "grad_input has shape %s but input %s",
               gi.v.shape_str().c_str(), input.shape_str().c_str());
    const OptionalView weight = optional_input(weight_h, "weight");
    const OptionalView rmean = optional_input(running_mean_h, "running_mean");
    const OptionalView rvar = optional_input(running_var_h, "running_var");
    const OptionalView smean = optional_input(save_mean_h, "save_mean");
    const OptionalView sinvstd = optional_input(save_invstd_h, "save_invstd");
    for (const auto* p : {&weight, &gw, &gb}) check_channels(*p, s.channels, "weight/grad");
    if (training) {
      SIMK_CHECK(smean.present && sinvstd.present, "training needs save_mean and save_invstd");
      check_channels(smean, s.channels, "save_mean");
      check_channels(sinvstd, s.channels, "save_invstd");
    } else {
      SIMK_CHECK(rmean.present && rvar.present, "evaluation needs running_mean and running_var");
      check_channels(rmean, s.channels, "running_mean");
      check_channels(rvar, s.channels, "running_var");
    }
    if (!gi.present && !gw.present && !gb.present) return;
    const View first = gi.present ? gi.v : gw.present ? gw.v : gb.v;
    launch(kernel, ctx, first, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<double> g = packed<double>(go);
      const std::vector<double> w = packed_or(weight, s.channels, 1.0);
      std::vector<double> mean, invstd;
      if (training) {
        mean = packed<double>(smean.v);
        invstd = packed<double>(sinvstd.v);
      } else {
        mean = packed<double>(rmean.v);
        invstd = packed<double>(rvar.v);
        for (double& v : invstd) v = 1.0 / std::sqrt(v + eps);
      }
      const double count = static_cast<double>(s.batch * s.spatial);
      std::vector<double> dx(gi.present ? x.size() : 0), dw(s.channels), db(s.channels);
      for (int64_t c = 0; c < s.channels; ++c) {
        double sum_g = 0, dot = 0;
        for (int64_t n = 0; n < s.batch; ++n)
          for (int64_t i = 0; i < s.spatial; ++i) {
            const int64_t k = at(s, n, c, i);
            sum_g += g[k];
            dot += g[k] * (x[k] - mean[c]);
          }
        dw[c] = dot * invstd[c];
        db[c] = sum_g;
        if (!gi.present) continue;
        const double scale = w[c] * invstd[c];
        for (int64_t n = 0; n < s.batch; ++n)
          for (int64_t i = 0; i < s.spatial; ++i) {
            const int64_t k = at(s, n, c, i);
            if (training) {
              const double proj = (x[k] - mean[c]) * invstd[c] * invstd[c] * dot / count;
              dx[k] = (g[k] - sum_g / count - proj) * scale;
            } else {
              dx[k] = g[k] * scale;
            }
          }
      }
      if (gi.present) unpack(gi.v, dx);
      if (gw.present) unpack(gw.v, dw);
      if (gb.present) unpack(gb.v, db);
    });
  });
}
