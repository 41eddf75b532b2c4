// The `diag` family: A 1-D input becomes a square matrix with it on diagonal `diagonal` (0 main,
// > 0 above, < 0 below) and zeros elsewhere; a 2-D input gives that diagonal as a vector. DIOPI:
// diopiDiag.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdint>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// The diagonal `k` of the 2-D view m as a 1-D view of `len` elements.
View diagonal_of(const View& m, int64_t k, int64_t len) {
  View d = m;
  d.ndim = 1;
  const int64_t off = k >= 0 ? k * m.strides[1] : -k * m.strides[0];
  d.data = m.data + off * m.itemsize();
  d.sizes[0] = len;
  d.strides[0] = m.strides[0] + m.strides[1];
  return d;
}

}  // namespace

diopiError_t diopiDiag(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, int64_t diagonal) {
  SIMK_KERNEL(diopiDiag);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(input.ndim == 1 || input.ndim == 2, "diag(): Supports 1D or 2D tensors. Got %dD",
               input.ndim);
    const int64_t k = diagonal;
    if (input.ndim == 1) {
      const int64_t n = input.sizes[0] + (k < 0 ? -k : k);
      SIMK_CHECK(out.ndim == 2 && out.sizes[0] == n && out.sizes[1] == n,
                 "out has shape %s, expected [%lld, %lld]", out.shape_str().c_str(),
                 static_cast<long long>(n), static_cast<long long>(n));
      SIMK_CHECK(!may_overlap(out, input), "out overlaps input");
      const View d = diagonal_of(out, k, input.sizes[0]);
      launch(kernel, ctx, out, [=] {
        static const double zero = 0;
        cast_copy(out,
                  contiguous_view(const_cast<double*>(&zero), diopi_dtype_float64, nullptr, 0));
        cast_copy(d, input);
      });
    } else {
      const int64_t len =
          std::max<int64_t>(0, k >= 0 ? std::min(input.sizes[0], input.sizes[1] - k)
                                      : std::min(input.sizes[0] + k, input.sizes[1]));
      SIMK_CHECK(out.ndim == 1 && out.sizes[0] == len, "out has shape %s, expected [%lld]",
                 out.shape_str().c_str(), static_cast<long long>(len));
      const View d = diagonal_of(input, k, len);
      launch(kernel, ctx, out, [=] {
        // Through a packed copy: out may overlap the input (diag of a view into out).
        Buffer tmp(input.dtype, d.sizes, 1);
        cast_copy(tmp.view(), d);
        cast_copy(out, tmp.view());
      });
    }
  });
}
