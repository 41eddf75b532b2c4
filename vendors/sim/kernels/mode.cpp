// The `mode` family: The most frequent value along dim (the smallest of equally frequent ones)
// with an index of it, the one ATen's CPU kernel picks. DIOPI extension: diopiMode.
#include <diopi/prototypes.h>

#include <algorithm>
#include <utility>
#include <vector>

#include "common/select.h"

using namespace simk;

namespace {

// ATen's CPU mode, step for step: the line's (value, position) pairs go through std::sort by
// value alone (not stable, so which position of a value ends its run is the algorithm's), then
// the run that ends at the last element of the first longest run wins. The same std::sort on
// the same comparisons gives the same permutation (A compares as ATen's scalar_t does).
template <class A>
int64_t mode_index(const A* x, int64_t n, int64_t s) {
  std::vector<std::pair<A, int64_t>> e(static_cast<size_t>(n));
  for (int64_t i = 0; i < n; ++i) e[i] = std::make_pair(x[i * s], i);
  std::sort(e.begin(), e.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  int64_t best = 0, run = 0, best_run = 0;
  for (int64_t i = 0; i < n; ++i) {
    ++run;
    if (i == n - 1 || e[i].first != e[i + 1].first) {
      if (run > best_run) {
        best = e[i].second;
        best_run = run;
      }
      run = 0;
    }
  }
  return best;
}

}  // namespace

diopiError_t diopiMode(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                       diopiTensorHandle_t indices, diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiMode);
  return guarded(kernel.name, [&] {
    const View in = input_view(input, "input");
    select_lines<kAllTypes>(kernel, ctx, output_view(values, "values"),
                            output_view(indices, "indices"), in, wrap_dim(dim, in.ndim),
                            [](auto* x, int64_t n, int64_t s) { return mode_index(x, n, s); });
  });
}
