// The `count_nonzero` family: The number of nonzero elements (NaN counts) over the given dims
// (all when dim is empty), as int64. DIOPI extension: diopiCountNonzero.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/reduce.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiCountNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                               diopiConstTensorHandle_t input_h, diopiSize_t dim) {
  SIMK_KERNEL(diopiCountNonzero);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    check_dtype(out, dtype_bit(diopi_dtype_int64), "out");
    const ReducePlan plan = plan_reduction(input, out, dim);  // checks dims and out's shape
    std::vector<bool> red(plan.reduced, plan.reduced + input.ndim);
    launch(kernel, ctx, out, [=] {
      // Every nonzero value of every dtype stays nonzero in double (NaN included).
      const std::vector<double> x = packed<double>(input);
      std::vector<int64_t> count(static_cast<size_t>(out.numel()), 0);
      const int nd = input.ndim;
      std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
      for (size_t i = 0; i < x.size(); ++i) {
        int64_t o = 0;  // row-major position among the kept dims: out's order either way
        for (int d = 0; d < nd; ++d)
          if (!red[d]) o = o * input.sizes[d] + idx[d];
        if (x[i] != 0) ++count[static_cast<size_t>(o)];
        for (int d = nd - 1; d >= 0; --d) {
          if (++idx[d] < input.sizes[d]) break;
          idx[d] = 0;
        }
      }
      unpack(out, count);
    });
  });
}
