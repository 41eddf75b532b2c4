// Variance and standard deviation over a set of dims (var, std, var_mean, std_mean): mean and
// sum of squared deviations in double, two passes, rounded to the output dtype once, as ATen's
// CPU kernels (Welford in double; 16-bit inputs computed in float and rounded once). The
// divisor is max(0, N - correction), so too large a correction gives inf or NaN, as ATen.
#ifndef SIM_KERNELS_COMMON_MOMENTS_H_
#define SIM_KERNELS_COMMON_MOMENTS_H_

#include <cmath>
#include <limits>
#include <vector>

#include "launch.h"
#include "reduce.h"
#include "scalar.h"

namespace simk {

// out = var (or std when Sqrt) of input over dim; mean_h, when not null, the mean as well.
template <bool Sqrt>
void moments_kernel(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                    diopiTensorHandle_t mean_h, diopiConstTensorHandle_t input_h, diopiSize_t dim,
                    const diopiScalar_t* correction_s) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kFloating, "input");
  SIMK_CHECK(out.dtype == input.dtype, "out has dtype %s, input %s: they must match",
             dtype_name(out.dtype), dtype_name(input.dtype));
  const ReducePlan p = plan_reduction(input, out, dim);
  ReducePlan pm = p;
  const bool with_mean = mean_h != nullptr;
  if (with_mean) {
    const View mean = output_view(mean_h, "mean");
    SIMK_CHECK(mean.dtype == input.dtype && same_shape(mean, out),
               "mean (%s %s) must have out's shape and dtype (%s %s)", dtype_name(mean.dtype),
               mean.shape_str().c_str(), dtype_name(out.dtype), out.shape_str().c_str());
    pm = plan_reduction(input, mean, dim);
  }
  const double correction =
      correction_s == nullptr ? 1.0 : scalar_arg(correction_s, "correction").as<double>();
  launch(kernel, ctx, out, [=] {
    dispatch<kFloating>(input.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const std::vector<T> x = packed<T>(input);
      // Row-major index of each input element's output in the kept shape.
      int64_t kstride[kMaxDims] = {};
      int64_t n_out = 1;
      for (int d = input.ndim - 1; d >= 0; --d) {
        kstride[d] = p.reduced[d] ? 0 : n_out;
        n_out *= p.out_keep.sizes[d];
      }
      std::vector<int64_t> where(x.size());
      int64_t index[kMaxDims] = {};
      int64_t o = 0;
      for (size_t i = 0; i < x.size(); ++i) {
        where[i] = o;
        for (int d = input.ndim - 1; d >= 0; --d) {  // advance the row-major index
          o += kstride[d];
          if (++index[d] < input.sizes[d]) break;
          o -= kstride[d] * input.sizes[d];
          index[d] = 0;
        }
      }
      const double n = static_cast<double>(p.count);
      std::vector<double> mean(static_cast<size_t>(n_out), 0.0), m2(mean.size(), 0.0);
      for (size_t i = 0; i < x.size(); ++i) mean[where[i]] += static_cast<double>(load(x[i]));
      for (double& m : mean) m /= n;  // NaN for an empty reduction, as ATen
      for (size_t i = 0; i < x.size(); ++i) {
        const double dev = static_cast<double>(load(x[i])) - mean[where[i]];
        m2[where[i]] += dev * dev;
      }
      const double divisor = n > correction ? n - correction : 0.0;
      std::vector<T> r(mean.size()), mr(mean.size());
      for (size_t k = 0; k < r.size(); ++k) {
        const double v = p.count == 0 ? std::numeric_limits<double>::quiet_NaN() : m2[k] / divisor;
        r[k] = convert<T>(Sqrt ? std::sqrt(v) : v);
        mr[k] = convert<T>(mean[k]);
      }
      unpack(p.out_keep, r);
      if (with_mean) unpack(pm.out_keep, mr);
    });
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_MOMENTS_H_
