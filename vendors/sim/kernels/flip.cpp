// The `flip` family: Reverses the order of the elements along each of dims. DIOPI: diopiFlip.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/gather_elements.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiSize_t dims) {
  SIMK_KERNEL(diopiFlip);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    bool flipped[kMaxDims] = {};
    for (int64_t k = 0; k < dims.len; ++k) {
      const int d = wrap_dim(dims.data[k], input.ndim);
      SIMK_CHECK(input.ndim == 0 || !flipped[d], "dim %d appears multiple times in dims", d);
      if (input.ndim > 0) flipped[d] = true;
    }
    std::vector<bool> f(flipped, flipped + kMaxDims);
    launch(kernel, ctx, out, [=] {
      gather_elements(out, input, [&](const int64_t* idx, int64_t) {
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d)
          off += (f[d] ? input.sizes[d] - 1 - idx[d] : idx[d]) * input.strides[d];
        return off;
      });
    });
  });
}
