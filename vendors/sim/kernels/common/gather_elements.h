// gather_elements: out[i] = input[src_offset(i)], the data movement of flip, roll and repeat
// (elements copied between any two layouts without conversion).
#ifndef SIM_KERNELS_COMMON_GATHER_ELEMENTS_H_
#define SIM_KERNELS_COMMON_GATHER_ELEMENTS_H_

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

// Copies element src_offset(i) of `input` to row-major element i of `out` (raw bytes: both
// have the same dtype).
template <class SrcOffset>
void gather_elements(const View& out, const View& input, SrcOffset src_offset) {
  const int64_t n = out.numel();
  const int64_t isz = out.itemsize();
  int64_t idx[kMaxDims];
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i;
    for (int d = out.ndim - 1; d >= 0; --d) {
      idx[d] = rest % out.sizes[d];
      rest /= out.sizes[d];
    }
    std::memcpy(out.data + offset_of(out, i) * isz, input.data + src_offset(idx, i) * isz,
                static_cast<size_t>(isz));
  }
}

inline void check_same(const View& out, const View& input) {
  SIMK_CHECK(out.dtype == input.dtype, "out must have input's dtype");
  SIMK_CHECK(!may_overlap(out, input), "out must not overlap input");
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_GATHER_ELEMENTS_H_
