// The `nansum` family: Sum over the given dimensions (all when dim is empty) treating NaN as
// zero, accumulated in double; keepdim is read from out's shape. DIOPI: diopiNansum.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiNansum(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, diopiSize_t dim) {
  SIMK_KERNEL(diopiNansum);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloat32Or64, "out");
    check_dtype(input, kFloat32Or64, "input");
    const int nd = input.ndim;
    bool reduced[kMaxDims] = {};
    if (dim.data == nullptr || dim.len == 0) {
      for (int d = 0; d < nd; ++d) reduced[d] = true;
    } else {
      for (int64_t k = 0; k < dim.len; ++k) {
        int64_t d = dim.data[k];
        const int64_t wrap = nd > 0 ? nd : 1;  // a 0-dim tensor accepts dim 0 and -1
        SIMK_CHECK(d >= -wrap && d < wrap, "dim %lld out of range for a %d-dim input",
                   static_cast<long long>(d), nd);
        if (d < 0) d += wrap;
        if (nd == 0) continue;
        SIMK_CHECK(!reduced[d], "dim %lld appears more than once in the reduction dims",
                   static_cast<long long>(d));
        reduced[d] = true;
      }
    }
    View keep, drop;
    keep.ndim = nd;
    for (int d = 0; d < nd; ++d) {
      keep.sizes[d] = reduced[d] ? 1 : input.sizes[d];
      if (!reduced[d]) drop.sizes[drop.ndim++] = input.sizes[d];
    }
    SIMK_CHECK(same_shape(out, keep) || same_shape(out, drop),
               "out has shape %s; reducing input %s gives %s (or %s with keepdim)",
               out.shape_str().c_str(), input.shape_str().c_str(), drop.shape_str().c_str(),
               keep.shape_str().c_str());
    std::vector<bool> red(reduced, reduced + nd);
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      // Row-major order of the kept dims is out's order with or without keepdim.
      std::vector<double> acc(static_cast<size_t>(out.numel()), 0.0);
      std::vector<int64_t> idx(static_cast<size_t>(nd), 0);
      for (size_t i = 0; i < x.size(); ++i) {
        int64_t o = 0;
        for (int d = 0; d < nd; ++d)
          if (!red[d]) o = o * input.sizes[d] + idx[d];
        if (!std::isnan(x[i])) acc[static_cast<size_t>(o)] += x[i];
        for (int d = nd - 1; d >= 0; --d) {  // next row-major index
          if (++idx[d] < input.sizes[d]) break;
          idx[d] = 0;
        }
      }
      unpack(out, acc);
    });
  });
}
