// The `searchsorted` family: for each element of input, the index at which it would be inserted
// into the innermost dim of sorted_sequence (1-D, or input's leading dims) to keep it sorted, the
// first such index (last when right), reading the sequence through sorter's indices when given;
// int32 when out_int32, else int64. DIOPI extensions: diopiSearchsorted, diopiBucketize.
#include <diopi/prototypes.h>

#include <cstring>
#include <vector>

#include "common/elementwise.h"
#include "common/index.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// ATen's binary search on [start, end) of bd (cus_lower_bound / cus_upper_bound), reading
// bd[start + sort[mid]] when a sorter is given: the same comparisons, so an unsorted or
// NaN-holding sequence gives ATen's answer too.
template <class A>
int64_t bound(const A* bd, const int64_t* sort, int64_t start, int64_t end, A val, bool right) {
  const int64_t row = start;
  while (start < end) {
    const int64_t mid = start + ((end - start) >> 1);
    const A m = sort ? bd[sort[mid] + row] : bd[mid];
    if (right ? !(m > val) : !(m >= val)) {
      start = mid + 1;
    } else {
      end = mid;
    }
  }
  return start;
}

void search(const Kernel& kernel, diopiContextHandle_t ctx, const View& out, const View& seq,
            const View& input, bool out_int32, bool right, diopiConstTensorHandle_t sorter_h) {
  constexpr uint32_t kTypes = kFloating | kIntegral;
  check_dtype(out, dtype_bit(out_int32 ? diopi_dtype_int32 : diopi_dtype_int64), "out");
  check_dtype(input, kTypes, "input");
  check_dtype(seq, kTypes, "sorted_sequence");
  if (seq.dtype != input.dtype)  // ATen compares in the promoted dtype: left to the CPU
    failf(diopiDtypeNotSupported, "sorted_sequence (%s) and input (%s) differ in dtype",
          dtype_name(seq.dtype), dtype_name(input.dtype));
  SIMK_CHECK(seq.ndim >= 1, "sorted_sequence must have at least one dimension");
  SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  const bool one_d = seq.ndim == 1;
  if (!one_d) {
    bool match = seq.ndim == input.ndim;
    for (int d = 0; match && d + 1 < seq.ndim; ++d) match = seq.sizes[d] == input.sizes[d];
    SIMK_CHECK(match, "sorted_sequence %s must be 1-D or share all but its last dim with input %s",
               seq.shape_str().c_str(), input.shape_str().c_str());
  }
  const bool sorted = sorter_h != nullptr;
  View sorter;
  if (sorted) {
    sorter = input_view(sorter_h, "sorter");
    check_dtype(sorter, dtype_bit(diopi_dtype_int64), "sorter");
    SIMK_CHECK(same_shape(sorter, seq), "sorter %s must have sorted_sequence's shape %s",
               sorter.shape_str().c_str(), seq.shape_str().c_str());
  }
  launch(kernel, ctx, out, [=] {
    dispatch<kTypes>(input.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      using A = acc_t<T>;
      std::vector<A> bd, x;
      for (const T v : packed<T>(seq)) bd.push_back(load(v));
      for (const T v : packed<T>(input)) x.push_back(load(v));
      const int64_t row = seq.sizes[seq.ndim - 1];
      std::vector<int64_t> order;
      if (sorted) {
        order = packed<int64_t>(sorter);
        for (const int64_t k : order) check_index(k, row, "searchsorted: sorter");
      }
      const int64_t* sort = sorted ? order.data() : nullptr;
      const int64_t per_row = input.ndim > 0 ? input.sizes[input.ndim - 1] : 1;
      std::vector<int64_t> pos(x.size());
      for (size_t i = 0; i < x.size(); ++i) {
        const int64_t start = one_d ? 0 : static_cast<int64_t>(i) / per_row * row;
        pos[i] = bound(bd.data(), sort, start, start + row, x[i], right) - start;
      }
      unpack(out, pos);
    });
  });
}

}  // namespace

diopiError_t diopiSearchsorted(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                               diopiConstTensorHandle_t sorted_sequence,
                               diopiConstTensorHandle_t input, bool out_int32, bool right,
                               const char* side, diopiConstTensorHandle_t sorter) {
  SIMK_KERNEL(diopiSearchsorted);
  return guarded(kernel.name, [&] {
    if (side != nullptr) {
      const bool is_right = std::strcmp(side, "right") == 0;
      SIMK_CHECK(is_right || std::strcmp(side, "left") == 0,
                 "side can only be 'left' or 'right' but got '%s'", side);
      SIMK_CHECK(is_right || !right,
                 "side and right can't be set to opposites, got side of "
                 "left while right was True");
      right = is_right;
    }
    search(kernel, ctx, output_view(out, "out"), input_view(sorted_sequence, "sorted_sequence"),
           input_view(input, "input"), out_int32, right, sorter);
  });
}

diopiError_t diopiBucketize(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t boundaries,
                            bool out_int32, bool right) {
  SIMK_KERNEL(diopiBucketize);
  return guarded(kernel.name, [&] {
    const View bd = input_view(boundaries, "boundaries");
    SIMK_CHECK(bd.ndim == 1, "boundaries tensor must be 1 dimension, but got dim(%d)", bd.ndim);
    search(kernel, ctx, output_view(out, "out"), bd, input_view(input, "input"), out_int32, right,
           nullptr);
  });
}
