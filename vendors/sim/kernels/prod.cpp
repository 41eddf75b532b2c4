// The `prod` family: Product of the elements along dim (keepdim read from out's shape; every
// element when dim is null); floating inputs multiply in double, integral ones in int64 with
// wrap-around. DIOPI: diopiProd.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, const int64_t* dim_arg) {
  SIMK_KERNEL(diopiProd);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    check_dtype(out, kFloatingAndInt | kIntegral, "out");
    int dim = -1;
    if (dim_arg != nullptr) {
      dim = wrap_dim(*dim_arg, input.ndim);
      check_reduced(out, input, dim, "out");
    } else {
      SIMK_CHECK(out.numel() == 1, "out must have one element, got %s", out.shape_str().c_str());
    }
    const bool integral = !is_floating(input.dtype) && !is_floating(out.dtype);
    launch(kernel, ctx, out, [=] {
      const Lines l =
          dim >= 0 ? lines_of(input, dim) : Lines{1, std::max<int64_t>(input.numel(), 0), 1};
      const size_t n = static_cast<size_t>(l.outer * l.inner);
      if (integral) {
        const std::vector<int64_t> x = packed<int64_t>(input);
        std::vector<int64_t> r(n);
        for (int64_t o = 0; o < l.outer; ++o)
          for (int64_t i = 0; i < l.inner; ++i) {
            uint64_t acc = 1;  // unsigned: wraps like ATen's int64 product
            for (int64_t k = 0; k < l.len; ++k)
              acc *= static_cast<uint64_t>(x[o * l.len * l.inner + k * l.inner + i]);
            r[o * l.inner + i] = static_cast<int64_t>(acc);
          }
        unpack(out, r);
      } else {
        const std::vector<double> x = packed<double>(input);
        std::vector<double> r(n);
        for (int64_t o = 0; o < l.outer; ++o)
          for (int64_t i = 0; i < l.inner; ++i) {
            double acc = 1.0;
            for (int64_t k = 0; k < l.len; ++k) acc *= x[o * l.len * l.inner + k * l.inner + i];
            r[o * l.inner + i] = acc;
          }
        unpack(out, r);
      }
    });
  });
}
