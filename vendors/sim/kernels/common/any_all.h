// any_all<Any>: the boolean reductions any and all over every element or one dim.
#ifndef SIM_KERNELS_COMMON_ANY_ALL_H_
#define SIM_KERNELS_COMMON_ANY_ALL_H_

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

// any / all along `dim` (or over everything when dim is null).
template <bool Any>
void any_all(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
             diopiConstTensorHandle_t input_h, const int64_t* dim_arg) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(out, kAllTypes, "out");
  int dim = -1;
  if (dim_arg != nullptr) {
    dim = wrap_dim(*dim_arg, input.ndim);
    check_reduced(out, input, dim, "out");
  } else {
    SIMK_CHECK(out.numel() == 1, "out must have one element, got %s", out.shape_str().c_str());
  }
  launch(kernel, ctx, out, [=] {
    const std::vector<double> x = packed<double>(input);
    const Lines l = dim >= 0 ? lines_of(input, dim) : Lines{1, static_cast<int64_t>(x.size()), 1};
    std::vector<double> r(static_cast<size_t>(l.outer * l.inner));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        bool acc = !Any;
        for (int64_t k = 0; k < l.len; ++k) {
          const bool nz = x[o * l.len * l.inner + k * l.inner + i] != 0.0;  // NaN is nonzero
          acc = Any ? (acc || nz) : (acc && nz);
        }
        r[o * l.inner + i] = acc ? 1.0 : 0.0;
      }
    unpack(out, r);
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ANY_ALL_H_
