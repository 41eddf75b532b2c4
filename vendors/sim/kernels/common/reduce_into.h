// Combining source elements into an output at indexed positions, shared by the scatter_reduce
// family (scatter_reduce, scatter_add: positions from an index tensor of src's shape) and
// index_reduce / index_add (positions from a 1-D index naming slices along a dim).
//
// The caller supplies `visit(f)`, which calls f(out offset, src offset) for every pair in index
// order; the pairs are combined one by one in that order (as ATen's CPU kernels do), so repeated
// positions give the same result every run.
#ifndef SIM_KERNELS_COMMON_REDUCE_INTO_H_
#define SIM_KERNELS_COMMON_REDUCE_INTO_H_

#include <cmath>
#include <cstring>
#include <vector>

#include "dtype.h"
#include "error.h"
#include "index.h"
#include "shape_ops.h"
#include "view.h"

namespace simk {

enum class Combine { kSum, kProd, kMean, kAmax, kAmin };

// What the combining ops compute in (ATen's CPU kernels also take the other integer types).
constexpr uint32_t kCombineTypes =
    kFloating | dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64);

// The reduction a `reduce` string names (ATen's names; "sum" only where allow_sum), anything
// else is an error naming it.
inline Combine parse_combine(const char* reduce, bool allow_sum) {
  SIMK_CHECK(reduce != nullptr, "reduce is null");
  if (allow_sum && std::strcmp(reduce, "sum") == 0) return Combine::kSum;
  if (std::strcmp(reduce, "prod") == 0) return Combine::kProd;
  if (std::strcmp(reduce, "mean") == 0) return Combine::kMean;
  if (std::strcmp(reduce, "amax") == 0) return Combine::kAmax;
  if (std::strcmp(reduce, "amin") == 0) return Combine::kAmin;
  failf(diopiErrorOccurred, "reduce must be %s\"prod\", \"mean\", \"amax\" or \"amin\", got \"%s\"",
        allow_sum ? "\"sum\", " : "", reduce);
}

// One past the largest element offset of `v` (strides are non-negative for kernel outputs).
inline int64_t offset_span(const View& v) {
  int64_t span = 1;
  for (int d = 0; d < v.ndim; ++d) {
    if (v.sizes[d] == 0) return 0;
    span += (v.sizes[d] - 1) * v.strides[d];
  }
  return span;
}

// The pairs of an index_* op: slice i of `src` along dim goes to slice idx[i] of `out`
// (0-dim views are treated as [1]). Indices must lie in [0, size) (ATen's index_add / index_copy
// / index_reduce refuse negative ones).
template <class F>
void walk_index_slices(const View& out, const View& src, int dim, const std::vector<int64_t>& idx,
                       const char* what, F f) {
  static const int64_t kOne[1] = {1};
  View o = out, s = src;
  if (o.ndim == 0) o = contiguous_view(o.data, o.dtype, kOne, 1);
  if (s.ndim == 0) s = contiguous_view(s.data, s.dtype, kOne, 1);
  for (size_t i = 0; i < idx.size(); ++i) {
    check_index(idx[i], o.sizes[dim], what);
    const View so = select(o, dim, idx[i]);
    const View ss = select(s, dim, static_cast<int64_t>(i));
    const int64_t off_o = (so.data - out.data) / out.itemsize();
    const int64_t off_s = (ss.data - src.data) / src.itemsize();
    walk_pairs(so, ss, [&](int64_t a, int64_t b) { f(off_o + a, off_s + b); });
  }
}

// index_add / index_copy / index_reduce's shape rules: a 0-D or 1-D index, and a source of
// out's shape except that dim has index's length (0-dim out and source take one index).
inline void check_index_source(const View& out, const View& source, const View& index, int dim) {
  SIMK_CHECK(index.ndim <= 1, "index must be 0-D or 1-D, got %s", index.shape_str().c_str());
  SIMK_CHECK(source.dtype == out.dtype, "source has dtype %s, input %s", dtype_name(source.dtype),
             dtype_name(out.dtype));
  if (out.ndim == 0 || source.ndim == 0) {
    SIMK_CHECK(source.numel() == index.numel() && out.numel() == 1 && source.ndim <= 1,
               "source %s and index %s do not fit input %s", source.shape_str().c_str(),
               index.shape_str().c_str(), out.shape_str().c_str());
    return;
  }
  View expected = out;
  expected.sizes[dim] = index.numel();
  SIMK_CHECK(same_shape(source, expected), "source has shape %s, expected %s",
             source.shape_str().c_str(), expected.shape_str().c_str());
}

// The checked views of an index_add / index_copy / index_reduce call: out (input's shape and
// dtype, of `types`), the 1-D index (of `index_types`), source, and dim wrapped (0 for 0-dim).
struct IndexOp {
  View out, input, index, source;
  int dim = 0;
};

inline IndexOp index_op(diopiTensorHandle_t out_h, diopiConstTensorHandle_t input_h, int64_t dim,
                        diopiConstTensorHandle_t index_h, diopiConstTensorHandle_t source_h,
                        uint32_t types, uint32_t index_types) {
  IndexOp op;
  op.out = output_view(out_h, "out");
  op.input = input_view(input_h, "input");
  op.index = input_view(index_h, "index");
  op.source = input_view(source_h, "source");
  check_dtype(op.out, types, "out");
  check_dtype(op.index, index_types, "index");
  SIMK_CHECK(same_shape(op.out, op.input) && op.out.dtype == op.input.dtype,
             "out (%s) must match input (%s)", op.out.shape_str().c_str(),
             op.input.shape_str().c_str());
  op.dim = op.out.ndim == 0 ? 0 : wrap_dim(dim, op.out.ndim);
  check_index_source(op.out, op.source, op.index, op.dim);
  return op;
}

// out (already holding the input) (op)= src at the pairs `visit` yields. include_self false:
// the first element reaching a position replaces input's value there. mean divides each reached
// position's total by its count (floor division for integers, as ATen).
template <uint32_t Set, class Visit>
void reduce_into(const View& out, const View& src, Combine op, bool include_self, Visit visit) {
  const int64_t span = offset_span(out);
  std::vector<int64_t> count(static_cast<size_t>(span), 0);
  dispatch<Set>(out.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    T* o = out.ptr<T>();
    const T* s = src.ptr<T>();
    visit([&](int64_t oo, int64_t so) {
      const A x = load(s[so]);
      int64_t& n = count[static_cast<size_t>(oo)];
      if (n == 0) n = include_self ? 1 : 0;  // first visit: count input's value or not
      if (n == 0) {
        o[oo] = s[so];
        n = 1;
        return;
      }
      ++n;
      const A y = load(o[oo]);
      A r = y;
      switch (op) {
        case Combine::kSum:
        case Combine::kMean:
          r = y + x;
          break;
        case Combine::kProd:
          r = y * x;
          break;
        case Combine::kAmax:  // a NaN on either side wins, as ATen's CPU kernel
          r = (x != x) ? x : (y < x ? x : y);
          break;
        case Combine::kAmin:
          r = (x != x) ? x : (x < y ? x : y);
          break;
      }
      o[oo] = convert<T>(r);
    });
    if (op != Combine::kMean) return;
    walk_pairs(out, out, [&](int64_t oo, int64_t) {
      const int64_t n = count[static_cast<size_t>(oo)];
      if (n <= 1) return;
      const A y = load(o[oo]);
      if constexpr (std::is_floating_point<A>::value) {
        o[oo] = convert<T>(y / static_cast<A>(n));
      } else {
        A q = y / static_cast<A>(n);
        if ((y % static_cast<A>(n) != 0) && (y < 0)) --q;  // floor division
        o[oo] = convert<T>(q);
      }
    });
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_REDUCE_INTO_H_
