// Advanced indexing's index resolution, shared by index (input[indices]) and index_put:
// entries null (the whole dim), int64 (broadcast together, negative from the end) and bool
// (the positions of its true elements). A bool entry makes the result's shape depend on the data,
// so the index tensors are read on the calling thread after synchronize_on and resolved into one
// element offset of the indexed tensor per result element; only data movement runs on the stream.
#ifndef SIM_KERNELS_COMMON_ADVANCED_INDEX_H_
#define SIM_KERNELS_COMMON_ADVANCED_INDEX_H_

#include <cstring>
#include <string>
#include <vector>

#include "elementwise.h"
#include "shape_ops.h"

namespace simk {

// One int64 index over dim `dim` of the indexed tensor (a bool entry gives one per dim it covers).
struct DimIndex {
  int dim = 0;
  int ndim = 0;
  int64_t sizes[kMaxDims] = {};
  std::vector<int64_t> values;  // row-major
};

// input[indices] resolved: the result's shape and, per result element in row-major order, the
// element offset (through the indexed tensor's strides) it names.
struct Resolved {
  View shape;  // only ndim and sizes are meaningful
  std::vector<int64_t> offsets;
};

inline std::string sizes_str(const int64_t* sizes, int ndim) {
  View v;
  v.ndim = ndim;
  for (int d = 0; d < ndim; ++d) v.sizes[d] = sizes[d];
  return v.shape_str();
}

// Bool entry over dims [first, first + mask.ndim) -> one DimIndex per dim (its true positions).
inline void expand_mask(const View& self, const View& mask, int first, std::vector<DimIndex>& out) {
  for (int j = 0; j < mask.ndim; ++j) {
    SIMK_CHECK(mask.sizes[j] == self.sizes[first + j],
               "the shape of the mask %s at index %d does not match the shape of the indexed "
               "tensor %s at index %d",
               mask.shape_str().c_str(), j, self.shape_str().c_str(), first + j);
  }
  const std::vector<int64_t> m = packed<int64_t>(mask);
  std::vector<DimIndex> dims(static_cast<size_t>(mask.ndim));
  for (size_t i = 0; i < m.size(); ++i) {
    if (m[i] == 0) continue;
    int64_t rest = static_cast<int64_t>(i);
    for (int j = mask.ndim - 1; j >= 0; --j) {
      dims[j].values.push_back(rest % mask.sizes[j]);
      rest /= mask.sizes[j];
    }
  }
  for (int j = 0; j < mask.ndim; ++j) {
    dims[j].dim = first + j;
    dims[j].ndim = 1;
    dims[j].sizes[0] = static_cast<int64_t>(dims[j].values.size());
    out.push_back(std::move(dims[j]));
  }
}

inline std::vector<DimIndex> read_indices(const View& self, diopiConstTensorHandle_t* indices,
                                          int64_t nums) {
  SIMK_CHECK(nums >= 0 && (nums == 0 || indices != nullptr), "indices is NULL");
  std::vector<DimIndex> out;
  int dim = 0;
  for (int64_t k = 0; k < nums; ++k) {
    if (indices[k] == nullptr) {
      ++dim;
      continue;
    }
    const View ix = input_view(indices[k], "indices");
    check_dtype(ix, dtype_bit(diopi_dtype_int64) | dtype_bit(diopi_dtype_bool), "indices");
    const int covers = ix.dtype == diopi_dtype_bool ? ix.ndim : 1;
    SIMK_CHECK(dim + covers <= self.ndim, "too many indices for tensor of dimension %d", self.ndim);
    if (ix.dtype == diopi_dtype_bool) {
      expand_mask(self, ix, dim, out);
    } else {
      DimIndex d;
      d.dim = dim;
      d.ndim = ix.ndim;
      for (int j = 0; j < ix.ndim; ++j) d.sizes[j] = ix.sizes[j];
      d.values = packed<int64_t>(ix);
      out.push_back(std::move(d));
    }
    dim += covers;
  }
  SIMK_CHECK(dim <= self.ndim, "too many indices for tensor of dimension %d", self.ndim);
  return out;
}

// The shape the index entries broadcast to (right-aligned).
inline View broadcast_shape(const std::vector<DimIndex>& entries) {
  View b;
  for (const DimIndex& e : entries) b.ndim = std::max(b.ndim, e.ndim);
  for (int d = 0; d < b.ndim; ++d) b.sizes[d] = 1;
  for (const DimIndex& e : entries) {
    for (int j = 0; j < e.ndim; ++j) {
      const int d = b.ndim - e.ndim + j;
      const int64_t s = e.sizes[j];
      SIMK_CHECK(b.sizes[d] == s || b.sizes[d] == 1 || s == 1,
                 "shape mismatch: indexing tensors could not be broadcast together (%s and %s)",
                 b.shape_str().c_str(), sizes_str(e.sizes, e.ndim).c_str());
      if (s != 1) b.sizes[d] = s;
    }
  }
  return b;
}

inline Resolved resolve(const View& self, diopiConstTensorHandle_t* indices, int64_t nums) {
  const std::vector<DimIndex> entries = read_indices(self, indices, nums);
  const View b = broadcast_shape(entries);
  bool indexed[kMaxDims] = {};
  for (const DimIndex& e : entries) indexed[e.dim] = true;
  // Entries over consecutive dims put the broadcast dims where those dims were; otherwise the
  // broadcast dims come first (NumPy's rule).
  bool adjacent = true;
  for (size_t i = 1; i < entries.size(); ++i) {
    adjacent = adjacent && entries[i].dim == entries[0].dim + static_cast<int>(i);
  }
  const int b_at = entries.empty() ? 0 : (adjacent ? entries[0].dim : 0);

  // Offset contributed by the indexed dims at each broadcast position.
  std::vector<int64_t> b_offset(static_cast<size_t>(b.numel()), 0);
  for (int64_t p = 0; p < b.numel(); ++p) {
    int64_t coord[kMaxDims];
    int64_t rest = p;
    for (int d = b.ndim - 1; d >= 0; --d) {
      coord[d] = rest % b.sizes[d];
      rest /= b.sizes[d];
    }
    for (const DimIndex& e : entries) {
      int64_t at = 0;
      for (int j = 0; j < e.ndim; ++j) {
        at = at * e.sizes[j] + (e.sizes[j] == 1 ? 0 : coord[b.ndim - e.ndim + j]);
      }
      const int64_t size = self.sizes[e.dim];
      int64_t v = e.values[static_cast<size_t>(at)];
      SIMK_CHECK(v >= -size && v < size,
                 "index %lld is out of bounds for dimension %d with size %lld",
                 static_cast<long long>(v), e.dim, static_cast<long long>(size));
      if (v < 0) v += size;
      b_offset[static_cast<size_t>(p)] += v * self.strides[e.dim];
    }
  }

  // Result axes: the non-indexed dims of self with the broadcast dims inserted at b_at.
  Resolved r;
  int kept[kMaxDims];
  int nkept = 0;
  for (int d = 0; d < self.ndim; ++d) {
    if (!indexed[d]) kept[nkept++] = d;
  }
  SIMK_CHECK(nkept + b.ndim <= kMaxDims, "the indexing result has more than %d dims", kMaxDims);
  int kept_before = 0;  // kept dims placed before the broadcast dims
  while (kept_before < nkept && kept[kept_before] < b_at) ++kept_before;
  r.shape.ndim = nkept + b.ndim;
  for (int i = 0; i < kept_before; ++i) r.shape.sizes[i] = self.sizes[kept[i]];
  for (int i = 0; i < b.ndim; ++i) r.shape.sizes[kept_before + i] = b.sizes[i];
  for (int i = kept_before; i < nkept; ++i) r.shape.sizes[b.ndim + i] = self.sizes[kept[i]];

  const int64_t n = r.shape.numel();
  r.offsets.resize(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) {
    int64_t rest = i, off = 0, b_linear = 0, b_mul = 1;
    for (int a = r.shape.ndim - 1; a >= 0; --a) {
      const int64_t c = rest % r.shape.sizes[a];
      rest /= r.shape.sizes[a];
      if (a >= kept_before && a < kept_before + b.ndim) {
        b_linear += c * b_mul;
        b_mul *= r.shape.sizes[a];
      } else {
        const int k = a < kept_before ? a : a - b.ndim;
        off += c * self.strides[kept[k]];
      }
    }
    r.offsets[static_cast<size_t>(i)] = off + b_offset[static_cast<size_t>(b_linear)];
  }
  return r;
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ADVANCED_INDEX_H_
