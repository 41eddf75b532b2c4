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
#include "error.h"
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

// Calls f(offset in a, offset in b) for every position of two views of one shape, row-major.
template <class F>
void walk_pairs(const View& a, const View& b, F f) {
  const int nd = a.ndim;
  if (a.numel() == 0) return;
  int64_t coord[kMaxDims] = {};
  for (;;) {
    int64_t oa = 0, ob = 0;
    for (int d = 0; d < nd; ++d) {
      oa += coord[d] * a.strides[d];
      ob += coord[d] * b.strides[d];
    }
    f(oa, ob);
    int d = nd - 1;
    for (; d >= 0; --d) {
      if (++coord[d] < a.sizes[d]) break;
      coord[d] = 0;
    }
    if (d < 0) return;
  }
}

// Element offsets in `v` of the flat (row-major) positions `idx`, negative ones counted from
// the end (take, put); an index outside [-numel, numel) fails naming `what`.
inline std::vector<int64_t> flat_offsets(const View& v, const std::vector<int64_t>& idx,
                                         const char* what) {
  const int64_t n = v.numel();
  std::vector<int64_t> out(idx.size());
  for (size_t k = 0; k < idx.size(); ++k) {
    int64_t i = idx[k] < 0 ? idx[k] + n : idx[k];
    check_index(i, n, what);
    int64_t off = 0;
    for (int d = v.ndim - 1; d >= 0; --d) {
      off += (i % v.sizes[d]) * v.strides[d];
      i /= v.sizes[d];
    }
    out[k] = off;
  }
  return out;
}

// scatter's shape rules (ATen's scatter_gather_dtype_check / shape check): a non-empty index
// has input's rank, is no larger than input outside dim and no larger than src (if any) anywhere.
inline void check_scatter_shapes(const View& index, const View& input, const View* src, int dim) {
  if (index.numel() == 0) return;
  SIMK_CHECK(index.ndim == input.ndim, "index %s and input %s must have the same number of dims",
             index.shape_str().c_str(), input.shape_str().c_str());
  for (int k = 0; k < input.ndim; ++k) {
    SIMK_CHECK(k == dim || index.sizes[k] <= input.sizes[k],
               "index %s is larger than input %s outside dim %d", index.shape_str().c_str(),
               input.shape_str().c_str(), dim);
    SIMK_CHECK(src == nullptr || (src->ndim == index.ndim && index.sizes[k] <= src->sizes[k]),
               "index %s is larger than src %s", index.shape_str().c_str(),
               src->shape_str().c_str());
  }
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_INDEX_H_
