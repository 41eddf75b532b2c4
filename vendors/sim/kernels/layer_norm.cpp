// The `layer_norm` family: Layer normalization over the trailing normalized_shape dims, saving
// each row's mean and 1/std for the backward. DIOPI: diopiLayerNorm, diopiLayerNormBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/elementwise.h"
#include "common/optional_view.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

struct LayerNormShape {
  int64_t rows = 1, cols = 1;  // rows: leading elements; cols: normalized elements
};

LayerNormShape layer_norm_shape(const View& input, diopiSize_t normalized_shape) {
  const int64_t k = normalized_shape.len;
  SIMK_CHECK(k >= 1 && k <= input.ndim, "normalized_shape has %lld dims for input %s",
             static_cast<long long>(k), input.shape_str().c_str());
  LayerNormShape s;
  const int axis = input.ndim - static_cast<int>(k);
  for (int d = 0; d < input.ndim; ++d) {
    if (d < axis) {
      s.rows *= input.sizes[d];
    } else {
      SIMK_CHECK(input.sizes[d] == normalized_shape.data[d - axis],
                 "normalized_shape does not match the trailing dims of input %s",
                 input.shape_str().c_str());
      s.cols *= input.sizes[d];
    }
  }
  return s;
}

void check_affine(const OptionalView& p, int64_t cols, const char* what) {
  SIMK_CHECK(!p.present || p.v.numel() == cols, "%s has %lld elements, expected %lld", what,
             static_cast<long long>(p.present ? p.v.numel() : 0), static_cast<long long>(cols));
}

}  // namespace

diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiTensorHandle_t save_mean_h, diopiTensorHandle_t save_invstd_h,
                            diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h,
                            diopiConstTensorHandle_t bias_h, diopiSize_t normalized_shape,
                            double eps) {
  SIMK_KERNEL(diopiLayerNorm);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(same_shape(out, input), "out has shape %s but input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    const LayerNormShape s = layer_norm_shape(input, normalized_shape);
    const OptionalView mean = optional_output(save_mean_h, "save_mean");
    const OptionalView invstd = optional_output(save_invstd_h, "save_invstd");
    const OptionalView weight = optional_input(weight_h, "weight");
    const OptionalView bias = optional_input(bias_h, "bias");
    check_affine(weight, s.cols, "weight");
    check_affine(bias, s.cols, "bias");
    SIMK_CHECK(!mean.present || mean.v.numel() == s.rows,
               "save_mean has %lld elements, "
               "expected %lld",
               static_cast<long long>(mean.v.numel()), static_cast<long long>(s.rows));
    SIMK_CHECK(!invstd.present || invstd.v.numel() == s.rows,
               "save_invstd has %lld elements, "
               "expected %lld",
               static_cast<long long>(invstd.v.numel()), static_cast<long long>(s.rows));
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<double> w = packed_or(weight, s.cols, 1.0);
      const std::vector<double> b = packed_or(bias, s.cols, 0.0);
      std::vector<double> y(x.size()), mu(s.rows), rs(s.rows);
      for (int64_t r = 0; r < s.rows; ++r) {
        const double* xr = x.data() + r * s.cols;
        double sum = 0;
        for (int64_t j = 0; j < s.cols; ++j) sum += xr[j];
        const double m = s.cols > 0 ? sum / s.cols : 0.0;
        double sq = 0;
        for (int64_t j = 0; j < s.cols; ++j) sq += (xr[j] - m) * (xr[j] - m);
        const double var = s.cols > 0 ? sq / s.cols : 0.0;
        const double rstd = 1.0 / std::sqrt(var + eps);
        mu[r] = m;
        rs[r] = rstd;
        double* yr = y.data() + r * s.cols;
        for (int64_t j = 0; j < s.cols; ++j) yr[j] = (xr[j] - m) * rstd * w[j] + b[j];
      }
      unpack(out, y);
      if (mean.present) unpack(mean.v, mu);
      if (invstd.present) unpack(invstd.v, rs);
    });
  });
}

diopiError_t diopiLayerNormBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h, diopiTensorHandle_t grad_weight_h,
    diopiTensorHandle_t grad_bias_h, diopiConstTensorHandle_t grad_output_h,
    diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t weight_h,
    diopiConstTensorHandle_t bias_h, diopiConstTensorHandle_t mean_h,
    diopiConstTensorHandle_t rstd_h, diopiSize_t normalized_shape) {
  SIMK_KERNEL(diopiLayerNormBackward);
  (void)bias_h;  // the bias does not enter the gradients
  return guarded(kernel.name, [&] {
    const OptionalView gi = optional_output(grad_input_h, "grad_input");
    const OptionalView gw = optional_output(grad_weight_h, "grad_weight");
    const OptionalView gb = optional_output(grad_bias_h, "grad_bias");
    const View go = input_view(grad_output_h, "grad_output");
    const View input = input_view(input_h, "input");
    const View mean = input_view(mean_h, "mean");
    const View rstd = input_view(rstd_h, "rstd");
    check_dtype(go, kFloating, "grad_output");
    check_dtype(input, kFloating, "input");
    check_dtype(mean, kFloating, "mean");
    check_dtype(rstd, kFloating, "rstd");
    const OptionalView weight = optional_input(weight_h, "weight");
    const LayerNormShape s = layer_norm_shape(input, normalized_shape);
    check_affine(weight, s.cols, "weight");
    check_affine(gw, s.cols, "grad_weight");
    check_affine(gb, s.cols, "grad_bias");
    SIMK_CHECK(same_shape(go, input), "grad_output has shape %s but input %s",
               go.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(!gi.present || same_shape(gi.v, input), "grad_input has shape %s but input %s",
               gi.v.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(mean.numel() == s.rows && rstd.numel() == s.rows,
               "mean and rstd must have %lld elements", static_cast<long long>(s.rows));
    if (!gi.present && !gw.present && !gb.present) return;
    const View first = gi.present ? gi.v : gw.present ? gw.v : gb.v;
    launch(kernel, ctx, first, [=] {
      const std::vector<double> x = packed<double>(input);
      const std::vector<double> g = packed<double>(go);
      const std::vector<double> mu = packed<double>(mean);
      const std::vector<double> rs = packed<double>(rstd);
      const std::vector<double> w = packed_or(weight, s.cols, 1.0);
      std::vector<double> dx(gi.present ? x.size() : 0), dw(s.cols, 0.0), db(s.cols, 0.0);
      std::vector<double> xhat(s.cols);
      for (int64_t r = 0; r < s.rows; ++r) {
        const double* xr = x.data() + r * s.cols;
        const double* gr = g.data() + r * s.cols;
        double sum_wg = 0, sum_wgx = 0;
        for (int64_t j = 0; j < s.cols; ++j) {
          xhat[j] = (xr[j] - mu[r]) * rs[r];
          const double wg = w[j] * gr[j];
          sum_wg += wg;
          sum_wgx += wg * xhat[j];
          dw[j] += gr[j] * xhat[j];
          db[j] += gr[j];
        }
        if (gi.present) {
          const double inv_n = 1.0 / static_cast<double>(s.cols);
          double* dr = dx.data() + r * s.cols;
          for (int64_t j = 0; j < s.cols; ++j)
            dr[j] = rs[r] * (w[j] * gr[j] - inv_n * sum_wg - xhat[j] * inv_n * sum_wgx);
        }
      }
      if (gi.present) unpack(gi.v, dx);
      if (gw.present) unpack(gw.v, dw);
      if (gb.present) unpack(gb.v, db);
    });
  });
}
