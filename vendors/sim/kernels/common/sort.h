// sort_lines: the stable sort along a dim of sort and topk (NaN the largest value, compared in
// the input's compute type), and the shape check of their outputs.
#ifndef SIM_KERNELS_COMMON_SORT_H_
#define SIM_KERNELS_COMMON_SORT_H_

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

// Sorts the indices of each line along `dim` (stable; NaN largest) and writes the first
// `keep` of them (values gathered, indices as int64) into values / indices, whose shape is
// the input's with `dim` resized to `keep`.
inline void sort_lines(const View& values, const View& indices, const View& input, int dim,
                       bool descending, int64_t keep) {
  dispatch<kFloatingAndInt | kIntegral>(input.dtype, [&](auto tag) {
    using T = TypeOf<decltype(tag)>;
    using A = acc_t<T>;
    const std::vector<T> x = packed<T>(input);
    const Lines l = lines_of(input, dim);
    std::vector<T> vals(static_cast<size_t>(l.outer * keep * l.inner));
    std::vector<int64_t> idx(vals.size());
    std::vector<int64_t> order(static_cast<size_t>(l.len));
    std::vector<A> key(static_cast<size_t>(l.len));
    for (int64_t o = 0; o < l.outer; ++o)
      for (int64_t i = 0; i < l.inner; ++i) {
        const int64_t base = o * l.len * l.inner + i;
        for (int64_t k = 0; k < l.len; ++k) key[k] = load(x[base + k * l.inner]);
        std::iota(order.begin(), order.end(), int64_t{0});
        std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
          const A ka = key[a], kb = key[b];
          if (descending) return (is_nan(ka) && !is_nan(kb)) || ka > kb;
          return (!is_nan(ka) && is_nan(kb)) || ka < kb;
        });
        for (int64_t k = 0; k < keep; ++k) {
          const int64_t dst = o * keep * l.inner + k * l.inner + i;
          vals[dst] = x[base + order[k] * l.inner];
          idx[dst] = order[k];
        }
      }
    unpack(values, vals);
    unpack(indices, idx);
  });
}

inline void check_selected(const View& out, const View& input, int dim, int64_t keep,
                           const char* what) {
  View want = input;
  if (input.ndim > 0) want.sizes[dim] = keep;
  SIMK_CHECK(same_shape(out, want), "%s has shape %s, expected %s", what, out.shape_str().c_str(),
             want.shape_str().c_str());
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_SORT_H_
