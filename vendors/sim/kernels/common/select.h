// Order statistics along one dim (kthvalue, median, nanmedian): the element of a given rank
// (value ascending, NaN the largest), and which of equal values each op returns as ATen 1.13
// does: median by position, kthvalue by its quickselect.
#ifndef SIM_KERNELS_COMMON_SELECT_H_
#define SIM_KERNELS_COMMON_SELECT_H_

#include <algorithm>
#include <numeric>
#include <vector>

#include "elementwise.h"
#include "packable.h"
#include "shape_ops.h"

namespace simk {

// Position (0 .. n-1) of the element of rank k (0-based) among x[0], x[s], ..., x[(n-1)s].
template <class A>
int64_t ranked_index(const A* x, int64_t n, int64_t s, int64_t k) {
  std::vector<int64_t> pos(static_cast<size_t>(n));
  std::iota(pos.begin(), pos.end(), int64_t{0});
  std::nth_element(pos.begin(), pos.begin() + k, pos.end(), [x, s](int64_t i, int64_t j) {
    const A a = x[i * s], b = x[j * s];
    const bool na = is_nan(a), nb = is_nan(b);
    if (na != nb) return nb;
    if (!na && a != b) return a < b;
    return i < j;
  });
  return pos[static_cast<size_t>(k)];
}

// Position of the k-th smallest (0-based; NaN the largest) as ATen's kthvalue finds it: Hoare's
// selection with a median-of-three pivot (Sedgewick), run on a copy of the line. Among equal
// values the one it returns depends on that algorithm, so this follows it step for step.
template <class A>
int64_t quickselect_index(const A* x, int64_t n, int64_t s, int64_t k) {
  std::vector<A> v(static_cast<size_t>(n));
  std::vector<int64_t> pos(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) v[i] = x[i * s], pos[i] = i;
  auto gt = [](A a, A b) { return (is_nan(a) && !is_nan(b)) || a > b; };
  auto swap = [&](int64_t a, int64_t b) {
    std::swap(v[a], v[b]);
    std::swap(pos[a], pos[b]);
  };
  int64_t lo = 0, hi = n - 1;
  while (hi > lo) {
    if (hi == lo + 1) {
      if (gt(v[lo], v[hi])) swap(lo, hi);
      break;
    }
    swap((lo + hi) >> 1, lo + 1);  // median of v[lo], v[lo + 1], v[hi] into v[lo]
    if (gt(v[lo + 1], v[hi])) swap(lo + 1, hi);
    if (gt(v[lo], v[hi])) swap(lo, hi);
    if (gt(v[lo + 1], v[lo])) swap(lo + 1, lo);
    int64_t i = lo + 1, j = hi;
    const A pivot = v[lo];
    for (;;) {
      do ++i;
      while (gt(pivot, v[i]));
      do --j;
      while (gt(v[j], pivot));
      if (j < i) break;
      swap(i, j);
    }
    swap(lo, j);
    if (j <= k) lo = i;
    if (j >= k) hi = j - 1;
  }
  return pos[static_cast<size_t>(k)];
}

// What each line of a reduction picks: (line values, length, stride) -> position in the line.
// Applies it to every line of `input` along dim and writes values and int64 indices, whose shape
// is input's reduced along dim (keepdim read from it).
template <uint32_t Set, class Pick>
void select_lines(const Kernel& kernel, diopiContextHandle_t ctx, const View& values,
                  const View& indices, const View& input, int dim, Pick pick) {
  check_dtype(input, Set, "input");
  SIMK_CHECK(values.dtype == input.dtype, "values has dtype %s, input %s", dtype_name(values.dtype),
             dtype_name(input.dtype));
  check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
  SIMK_CHECK(input.ndim == 0 || input.sizes[dim] > 0,
             "cannot reduce over dim %d of input %s: it has no elements", dim,
             input.shape_str().c_str());
  check_reduced(values, input, dim, "values");
  check_reduced(indices, input, dim, "indices");
  launch(kernel, ctx, values, [=] {
    dispatch<Set>(input.dtype, [&](auto tag) {
      using T = packable_t<TypeOf<decltype(tag)>>;
      using A = acc_t<T>;
      const std::vector<T> x = packed<T>(input);
      std::vector<A> a(x.size());
      for (size_t i = 0; i < x.size(); ++i) a[i] = load(x[i]);
      const Lines l = lines_of(input, dim);
      std::vector<T> got(static_cast<size_t>(l.outer * l.inner));
      std::vector<int64_t> where(got.size());
      for (int64_t o = 0; o < l.outer; ++o)
        for (int64_t i = 0; i < l.inner; ++i) {
          const int64_t base = o * l.len * l.inner + i;
          const int64_t k = pick(a.data() + base, l.len, l.inner);
          got[o * l.inner + i] = x[base + k * l.inner];
          where[o * l.inner + i] = k;
        }
      unpack(values, got);
      unpack(indices, where);
    });
  });
}

// The lower median's position in a line: with skip_nan the median of its non-NaN values (the
// first position when all are NaN); otherwise the first NaN if any.
template <class A>
int64_t median_index(const A* x, int64_t n, int64_t s, bool skip_nan) {
  int64_t nans = 0;
  for (int64_t i = 0; i < n; ++i) {
    if (!is_nan(x[i * s])) continue;
    if (!skip_nan) return i;
    ++nans;
  }
  const int64_t k = (n - nans - 1) / 2;  // C++ division: 0 when every value is NaN
  return ranked_index(x, n, s, k < 0 ? 0 : k);
}

// The lower median of all of input's elements (NaN when any is, unless skip_nan) into 0-dim out.
template <uint32_t Set>
void median_all(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& input,
                bool skip_nan) {
  check_dtype(input, Set, "input");
  SIMK_CHECK(out.dtype == input.dtype && out.numel() == 1,
             "out (%s, %s) must be one element of input's dtype %s", out.shape_str().c_str(),
             dtype_name(out.dtype), dtype_name(input.dtype));
  SIMK_CHECK(input.numel() > 0, "the median of an empty tensor is undefined");
  launch(kernel, ctx, out, [=] {
    dispatch<Set>(input.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      std::vector<T> x = packed<T>(input);
      std::vector<A> a(x.size());
      for (size_t i = 0; i < x.size(); ++i) a[i] = load(x[i]);
      const int64_t k = median_index(a.data(), static_cast<int64_t>(a.size()), 1, skip_nan);
      std::vector<T> r{x[static_cast<size_t>(k)]};
      unpack(out, r);
    });
  });
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_SELECT_H_
