// The `histc` family: Histogram of input's elements in bins equal bins from min to max (the
// data's own range when min equals max, widened by 1 on each side when that is one point);
// elements outside are not counted, the last bin includes max. An input holding a NaN is
// declined: ATen 1.13 counts a NaN in the first bin, 2.x leaves it out. DIOPI extension:
// diopiHistc.
#include <diopi/prototypes.h>

#include <cmath>
#include <vector>

#include "common/elementwise.h"
#include "common/launch.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// The lowest and highest value of x (which holds no NaN): ATen's aminmax, which histc asks
// for when min equals max.
template <class T>
void data_range(const std::vector<T>& x, double& lo, double& hi) {
  lo = hi = static_cast<double>(x[0]);
  for (const T t : x) {
    const double v = static_cast<double>(t);
    lo = v < lo ? v : lo;
    hi = v > hi ? v : hi;
  }
}

}  // namespace

diopiError_t diopiHistc(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t input_h, int64_t bins, const diopiScalar_t* min,
                        const diopiScalar_t* max) {
  SIMK_KERNEL(diopiHistc);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloat32Or64, "input");
    SIMK_CHECK(bins > 0, "torch.histc(): bins must be > 0, but got %lld",
               static_cast<long long>(bins));
    SIMK_CHECK(out.dtype == input.dtype && out.ndim == 1 && out.sizes[0] == bins,
               "out (%s, %s) must be [%lld] of input's dtype %s", out.shape_str().c_str(),
               dtype_name(out.dtype), static_cast<long long>(bins), dtype_name(input.dtype));
    double lo = scalar_arg(min, "min").as<double>(), hi = scalar_arg(max, "max").as<double>();
    // Where a NaN goes differs between ATen versions (1.13 counts it in the first bin, 2.x
    // leaves it out), and the range read from the data depends on the data: both are decided
    // here, on the calling thread, where a decline or an error still reaches the caller.
    synchronize_on(ctx);
    bool has_nan = false;
    dispatch<kFloat32Or64>(input.dtype, [&](auto tag) {
      const auto x = packed<TypeOf<decltype(tag)>>(input);
      for (const auto v : x) has_nan = has_nan || std::isnan(v);
      if (!has_nan && lo == hi && !x.empty()) data_range(x, lo, hi);
    });
    if (has_nan) failf(diopiNoImplement, "a NaN in input: its bin differs by torch version");
    if (lo == hi) {
      lo -= 1;
      hi += 1;
    }
    SIMK_CHECK(std::isfinite(lo) && std::isfinite(hi),
               "torch.histc: range of [%g, %g] is not finite", lo, hi);
    SIMK_CHECK(lo < hi, "torch.histc: max must be larger than min");
    launch(kernel, ctx, out, [=] {
      dispatch<kFloat32Or64>(input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        // ATen's edges are a linspace in T, whose ends are min and max rounded to T; each
        // element's bin is found by linear interpolation in T, as its histc kernel does.
        const T left = static_cast<T>(lo), right = static_cast<T>(hi);
        std::vector<T> hist(static_cast<size_t>(bins), T(0));
        for (const T v : packed<T>(input)) {
          if (!(v >= left && v <= right)) continue;  // outside
          int64_t pos = static_cast<int64_t>((v - left) * bins / (right - left));
          if (pos == bins) pos -= 1;  // the last bin includes its right edge
          hist[static_cast<size_t>(pos)] += T(1);
        }
        unpack(out, hist);
      });
    });
  });
}
