// The `aminmax` family: The minimum and the maximum along dim (over every element when dim is
// null), NaN propagating to both. DIOPI extension: diopiAminmax.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/packable.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// Position of the minimum (Max false) or maximum of x[0], x[s], ...: the first NaN if any, as
// ATen's aminmax propagates NaN; among equal values which one is taken does not matter.
template <bool Max, class A>
int64_t extreme_or_nan(const A* x, int64_t n, int64_t s) {
  int64_t best = 0;
  for (int64_t i = 0; i < n; ++i) {
    const A v = x[i * s];
    if (is_nan(v)) return i;
    if (Max ? v > x[best * s] : v < x[best * s]) best = i;
  }
  return best;
}

}  // namespace

diopiError_t diopiAminmax(diopiContextHandle_t ctx, diopiTensorHandle_t min_h,
                          diopiTensorHandle_t max_h, diopiConstTensorHandle_t input_h,
                          const int64_t* dim, bool keepdim) {
  SIMK_KERNEL(diopiAminmax);
  return guarded(kernel.name, [&] {
    const View min = output_view(min_h, "min"), max = output_view(max_h, "max");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    SIMK_CHECK(min.dtype == input.dtype && max.dtype == input.dtype,
               "min (%s) and max (%s) must have input's dtype %s", dtype_name(min.dtype),
               dtype_name(max.dtype), dtype_name(input.dtype));
    int d = 0;
    if (dim != nullptr) {
      d = wrap_dim(*dim, input.ndim);
      SIMK_CHECK(input.ndim == 0 || input.sizes[d] > 0,
                 "cannot compute aminmax over dim %d of input %s: it has no elements", d,
                 input.shape_str().c_str());
      if (input.ndim == 0) {  // [] or, as ATen 1.13 gives it with keepdim, [1]
        SIMK_CHECK(min.numel() == 1 && max.numel() == 1, "min and max must have one element");
      } else {
        check_reduced(min, input, d, "min");
        check_reduced(max, input, d, "max");
      }
    } else {
      SIMK_CHECK(input.numel() > 0, "cannot compute aminmax of an empty tensor");
      SIMK_CHECK(min.numel() == 1 && max.numel() == 1, "min and max must have one element");
      SIMK_CHECK(!keepdim || min.ndim == input.ndim, "keepdim: min must have input's rank");
    }
    const bool flat = dim == nullptr;
    launch(kernel, ctx, min, [=] {
      dispatch<kAllTypes>(input.dtype, [&](auto tag) {
        using T = packable_t<TypeOf<decltype(tag)>>;
        const std::vector<T> x = packed<T>(input);
        std::vector<acc_t<T>> a(x.size());
        for (size_t i = 0; i < x.size(); ++i) a[i] = load(x[i]);
        Lines l;
        if (flat) {
          l.len = static_cast<int64_t>(a.size());
        } else {
          l = lines_of(input, d);
        }
        std::vector<T> lo(static_cast<size_t>(l.outer * l.inner)), hi(lo.size());
        for (int64_t o = 0; o < l.outer; ++o)
          for (int64_t i = 0; i < l.inner; ++i) {
            const int64_t base = o * l.len * l.inner + i;
            const acc_t<T>* line = a.data() + base;
            lo[o * l.inner + i] = x[base + extreme_or_nan<false>(line, l.len, l.inner) * l.inner];
            hi[o * l.inner + i] = x[base + extreme_or_nan<true>(line, l.len, l.inner) * l.inner];
          }
        unpack(min, lo);
        unpack(max, hi);
      });
    });
  });
}
