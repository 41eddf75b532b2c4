// The `roll` family: Rolls the elements by shifts[i] along dims[i] (elements leaving at the end
// come back at the start); with dims empty, the flattened tensor rolls by shifts[0]. DIOPI:
// diopiRoll.
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

diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiSize_t shifts, diopiSize_t dims) {
  SIMK_KERNEL(diopiRoll);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
               input.shape_str().c_str());
    SIMK_CHECK(shifts.len > 0, "`shifts` required");
    const bool flat = dims.len == 0;
    SIMK_CHECK(flat ? shifts.len == 1 : shifts.len == dims.len,
               "shifts and dimensions must align. shifts: %lld, dims: %lld",
               static_cast<long long>(shifts.len), static_cast<long long>(dims.len));
    std::vector<int64_t> shift(kMaxDims, 0);
    for (int64_t k = 0; !flat && k < dims.len; ++k) {
      const int d = wrap_dim(dims.data[k], input.ndim);
      if (input.ndim > 0) shift[d] += shifts.data[k];
    }
    const int64_t flat_shift = flat ? shifts.data[0] : 0;
    launch(kernel, ctx, out, [=] {
      const int64_t n = input.numel();
      gather_elements(out, input, [&](const int64_t* idx, int64_t linear) {
        if (flat) {
          const int64_t src = ((linear - flat_shift) % n + n) % n;
          return offset_of(input, src);
        }
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d) {
          const int64_t s = input.sizes[d];
          off += (((idx[d] - shift[d]) % s + s) % s) * input.strides[d];
        }
        return off;
      });
    });
  });
}
