// Index checks and the gather / scatter walk shared by embedding, index_select, gather and
// scatter. An out-of-range index fails the stream (like a device-side assert), naming the kernel.
#ifndef SIM_KERNELS_COMMON_INDEX_H_
#define SIM_KERNELS_COMMON_INDEX_H_

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

constexpr uint32_t kIndexTypes = dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);

inline void check_index(int64_t i, int64_t size, const char* what) {
  if (i < 0 || i >= size)
    throw std::runtime_error(std::string(what) + ": index " + std::to_string(i) +
                             " is out of bounds for size " + std::to_string(size));
}

// Row-major walk over `index`: calls f(k, offset in `a` elements, offset in `b` elements, idx)
// where the offsets are those of position k in views a and b of index's shape, except that
// b's coordinate along `dim` is the index value.
template <class F>
void walk_gather(const View& index_shape, const View& a, const View& b, int dim,
                 const std::vector<int64_t>& idx, const char* what, F f) {
  const int nd = index_shape.ndim;
  int64_t coord[kMaxDims] = {};
  for (int64_t k = 0; k < static_cast<int64_t>(idx.size()); ++k) {
    int64_t oa = 0, ob = 0;
    for (int d = 0; d < nd; ++d) {
      oa += coord[d] * a.strides[d];
      if (d != dim) ob += coord[d] * b.strides[d];
    }
    if (nd > 0) {
      check_index(idx[k], b.sizes[dim], what);
      ob += idx[k] * b.strides[dim];
    } else {
      check_index(idx[k], 1, what);
    }
    f(k, oa, ob);
    for (int d = nd - 1; d >= 0; --d) {
      if (++coord[d] < index_shape.sizes[d]) break;
      coord[d] = 0;
    }
  }
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_INDEX_H_
