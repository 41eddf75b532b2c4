// triangle: triu / tril (keep the elements on one side of a diagonal, zero the others).
#ifndef SIM_KERNELS_COMMON_TRIANGLE_H_
#define SIM_KERNELS_COMMON_TRIANGLE_H_

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

inline bool same_layout(const View& a, const View& b) {
  if (a.data != b.data || a.dtype != b.dtype || !same_shape(a, b)) return false;
  for (int d = 0; d < a.ndim; ++d)
    if (a.sizes[d] > 1 && a.strides[d] != b.strides[d]) return false;
  return true;
}

// out = input with the elements outside the triangle zeroed: upper keeps col - row >= diagonal,
// lower keeps col - row <= diagonal.
inline void triangle(const Kernel& kernel, diopiContextHandle_t ctx, const View& out,
                     const View& input, int64_t diagonal, bool upper) {
  check_dtype(out, kAllTypes, "out");
  check_dtype(input, kAllTypes, "input");
  SIMK_CHECK(input.ndim >= 2, "input must have at least 2 dims, got %s", input.shape_str().c_str());
  SIMK_CHECK(same_shape(out, input), "out has shape %s but input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    if (!same_layout(out, input)) cast_copy(out, input);
    const int64_t rows = out.sizes[out.ndim - 2], cols = out.sizes[out.ndim - 1];
    int64_t batch = 1;
    for (int d = 0; d < out.ndim - 2; ++d) batch *= out.sizes[d];
    for (int64_t b = 0; b < batch; ++b) {
      const View m = trailing_at(out, 2, b);
      for (int64_t i = 0; i < rows; ++i) {
        const View row = select(m, 0, i);
        // Zeroed columns: [0, i + diagonal) for upper, [i + diagonal + 1, cols) for lower.
        int64_t lo = 0, hi = 0;
        if (upper) {
          hi = std::min(std::max<int64_t>(i + diagonal, 0), cols);
        } else {
          lo = std::min(std::max<int64_t>(i + diagonal + 1, 0), cols);
          hi = cols;
        }
        if (hi > lo) fill_zero(narrow(row, 0, lo, hi - lo));
      }
    }
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_TRIANGLE_H_
