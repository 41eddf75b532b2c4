// Metadata-only view arithmetic (select, narrow, offsets) and small helpers shared by the
// indexing, joining, normalization, convolution and pooling kernels.
//
// Those kernels move data with cast_copy between views (any dtypes, any strides) or compute in
// double over contiguous copies (packed()) and write the result back into out's dtype and layout,
// so they are independent of the layouts they are given.
#ifndef SIM_KERNELS_COMMON_SHAPE_OPS_H_
#define SIM_KERNELS_COMMON_SHAPE_OPS_H_

#include <cmath>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "dtype.h"
#include "error.h"
#include "view.h"

namespace simk {

// `dim` wrapped into [0, ndim); a 0-dim tensor accepts 0 and -1 (and gives 0).
inline int wrap_dim(int64_t dim, int ndim) {
  const int64_t n = ndim > 0 ? ndim : 1;
  SIMK_CHECK(dim >= -n && dim < n, "dim %lld out of range for a %d-dim tensor",
             static_cast<long long>(dim), ndim);
  return static_cast<int>(dim < 0 ? dim + n : dim);
}

// v[..., i, ...] along `dim` (the dim is dropped).
inline View select(const View& v, int dim, int64_t i) {
  View s = v;
  s.data = v.data + i * v.strides[dim] * v.itemsize();
  for (int d = dim; d + 1 < v.ndim; ++d) {
    s.sizes[d] = v.sizes[d + 1];
    s.strides[d] = v.strides[d + 1];
  }
  s.ndim = v.ndim - 1;
  return s;
}

// v[..., start:start+len, ...] along `dim`.
inline View narrow(const View& v, int dim, int64_t start, int64_t len) {
  View s = v;
  s.data = v.data + start * v.strides[dim] * v.itemsize();
  s.sizes[dim] = len;
  return s;
}

// Element offset (in elements) of the row-major linear index `linear` of v's shape.
inline int64_t offset_of(const View& v, int64_t linear) {
  int64_t off = 0;
  for (int d = v.ndim - 1; d >= 0; --d) {
    const int64_t i = linear % v.sizes[d];
    linear /= v.sizes[d];
    off += i * v.strides[d];
  }
  return off;
}

// The values of `v` converted to T in a contiguous std::vector (row-major). Runs on the stream.
template <class T>
std::vector<T> packed(const View& v) {
  std::vector<T> out(static_cast<size_t>(v.numel()));
  if (!out.empty()) cast_copy(contiguous_view(out.data(), dtype_of<T>, v.sizes, v.ndim), v);
  return out;
}

// Writes `values` (contiguous, row-major, shaped like dst) into dst, converting to dst's dtype.
template <class T>
void unpack(const View& dst, std::vector<T>& values) {
  if (dst.numel() == 0) return;
  cast_copy(dst, contiguous_view(values.data(), dtype_of<T>, dst.sizes, dst.ndim));
}

// outer x len x inner decomposition of a row-major copy along `dim` (0-dim: one line of 1).
struct Lines {
  int64_t outer = 1, len = 1, inner = 1;
};

inline Lines lines_of(const View& v, int dim) {
  Lines l;
  for (int d = 0; d < v.ndim; ++d) {
    if (d < dim) l.outer *= v.sizes[d];
    if (d == dim) l.len = v.sizes[d];
    if (d > dim) l.inner *= v.sizes[d];
  }
  return l;
}

// Checks that out has the input's shape without `dim` (or with it as 1: keepdim).
inline void check_reduced(const View& out, const View& input, int dim, const char* what) {
  View keep = input, drop;
  if (input.ndim > 0) keep.sizes[dim] = 1;
  for (int d = 0; d < input.ndim; ++d)
    if (d != dim) drop.sizes[drop.ndim++] = input.sizes[d];
  SIMK_CHECK(same_shape(out, keep) || same_shape(out, drop),
             "%s has shape %s; reducing input %s along dim %d gives %s (or %s with keepdim)", what,
             out.shape_str().c_str(), input.shape_str().c_str(), dim, drop.shape_str().c_str(),
             keep.shape_str().c_str());
}

// NaN test that is simply false for integral and bool element types.
template <class A>
bool is_nan(A v) {
  if constexpr (std::is_floating_point<A>::value) {
    return std::isnan(v);
  } else {
    return false;
  }
}

// The leading dims of `v` (all but the last `keep`) as their own view.
inline View leading(const View& v, int keep) {
  View l = v;
  l.ndim = v.ndim - keep;
  return l;
}

// v's trailing `keep` dims at the row-major position `k` of its leading dims.
inline View trailing_at(const View& v, int keep, int64_t k) {
  const View lead = leading(v, keep);
  View t;
  t.data = v.data + offset_of(lead, k) * v.itemsize();
  t.dtype = v.dtype;
  t.ndim = keep;
  for (int d = 0; d < keep; ++d) {
    t.sizes[d] = v.sizes[lead.ndim + d];
    t.strides[d] = v.strides[lead.ndim + d];
  }
  return t;
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_SHAPE_OPS_H_
