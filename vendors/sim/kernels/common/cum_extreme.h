// cummax / cummin: the running extreme along dim and the index where it was last attained, as
// ATen's CPU cummax_cummin_helper walks a line: a value replaces the running one when it is NaN
// or when neither is NaN and it is >= (cummax) or <= (cummin) it, so ties take the later index
// and a NaN, once seen, is kept (each later NaN taking over the index).
#ifndef SIM_KERNELS_COMMON_CUM_EXTREME_H_
#define SIM_KERNELS_COMMON_CUM_EXTREME_H_

#include <vector>

#include "elementwise.h"
#include "packable.h"
#include "shape_ops.h"

namespace simk {

template <bool Max>
void cum_extreme(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t values_h,
                 diopiTensorHandle_t indices_h, diopiConstTensorHandle_t input_h, int64_t dim) {
  const View values = output_view(values_h, "values");
  const View indices = output_view(indices_h, "indices");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
  SIMK_CHECK(values.dtype == input.dtype, "values has dtype %s, input %s", dtype_name(values.dtype),
             dtype_name(input.dtype));
  SIMK_CHECK(same_shape(values, input) && same_shape(indices, input),
             "values %s and indices %s must have input's shape %s", values.shape_str().c_str(),
             indices.shape_str().c_str(), input.shape_str().c_str());
  const int d = wrap_dim(dim, input.ndim);
  launch(kernel, ctx, values, [=] {
    dispatch<kAllTypes>(input.dtype, [&](auto tag) {
      using T = packable_t<TypeOf<decltype(tag)>>;
      using A = acc_t<T>;
      std::vector<T> x = packed<T>(input);
      std::vector<int64_t> where(x.size());
      const Lines l = lines_of(input, d);
      for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t i = 0; i < l.inner; ++i) {
          const int64_t base = o * l.len * l.inner + i;
          T best = l.len > 0 ? x[base] : T{};
          int64_t at = 0;
          for (int64_t j = 0; j < l.len; ++j) {
            const int64_t k = base + j * l.inner;
            const A v = load(x[k]), b = load(best);
            if (is_nan(v) || (!is_nan(b) && (Max ? v >= b : v <= b))) {
              best = x[k];
              at = j;
            }
            x[k] = best;
            where[k] = at;
          }
        }
      unpack(values, x);
      unpack(indices, where);
    });
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_CUM_EXTREME_H_
