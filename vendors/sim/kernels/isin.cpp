// The `isin` family: Whether each element of elements occurs in test_elements (invert negates);
// assume_unique skips deduplication, as ATen does. DIOPI extension: diopiIsin.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiIsin(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t elements_h, diopiConstTensorHandle_t test_h,
                       bool assume_unique, bool invert) {
  SIMK_KERNEL(diopiIsin);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View elements = input_view(elements_h, "elements");
    const View test = input_view(test_h, "test_elements");
    check_dtype(out, dtype_bit(diopi_dtype_bool), "out");
    check_dtype(elements, kFloatingAndInt, "elements");
    // Values compare in one dtype; mixed dtypes (ATen promotes them) are left to the CPU.
    SIMK_CHECK(test.dtype == elements.dtype, "test_elements has dtype %s, elements %s",
               dtype_name(test.dtype), dtype_name(elements.dtype));
    SIMK_CHECK(same_shape(out, elements), "out has shape %s, elements %s", out.shape_str().c_str(),
               elements.shape_str().c_str());
    // ATen 1.13 compares every pair when test_elements is small (numpy's heuristic), else
    // sorts both together; with assume_unique it skips deduplication, so repeated values give
    // its sort's answer rather than membership: emulated here, pair for pair.
    const int64_t n = elements.numel(), m = test.numel();
    const bool sorting =
        n > 0 && m >= static_cast<int64_t>(10.0f * std::pow(static_cast<double>(n), 0.145));
    launch(kernel, ctx, out, [=] {
      dispatch<kFloatingAndInt>(elements.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const std::vector<T> e = packed<T>(elements), t = packed<T>(test);
        std::vector<uint8_t> r(e.size());
        if (sorting && assume_unique) {
          std::vector<A> all;
          for (const T v : e) all.push_back(load(v));
          for (const T v : t) all.push_back(load(v));
          std::vector<int64_t> order(all.size());
          std::iota(order.begin(), order.end(), int64_t{0});
          std::stable_sort(order.begin(), order.end(), [&](int64_t i, int64_t j) {
            return !is_nan(all[i]) && (is_nan(all[j]) || all[i] < all[j]);  // NaN last
          });
          for (size_t k = 0; k < order.size(); ++k) {
            const bool dup = k + 1 < order.size() && all[order[k + 1]] == all[order[k]];
            const bool v = k + 1 < order.size() ? dup != invert : invert;
            if (order[k] < n) r[static_cast<size_t>(order[k])] = v;
          }
          unpack(out, r);
          return;
        }
        std::vector<A> set;
        set.reserve(t.size());
        for (const T v : t)
          if (!is_nan(load(v))) set.push_back(load(v));  // NaN equals nothing
        std::sort(set.begin(), set.end());
        for (size_t i = 0; i < e.size(); ++i) {
          const A x = load(e[i]);
          const bool found = !is_nan(x) && std::binary_search(set.begin(), set.end(), x);
          r[i] = static_cast<uint8_t>(found != invert);
        }
        unpack(out, r);
      });
    });
  });
}
