// The `repeat` family: Tiles input repeats[i] times along each dim (leading repeats add dims).
// DIOPI: diopiRepeat.
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

diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, diopiSize_t repeats_size) {
  SIMK_KERNEL(diopiRepeat);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_same(out, input);
    SIMK_CHECK(repeats_size.len >= input.ndim && repeats_size.len == out.ndim,
               "repeats (%lld dims) must cover input %s and match out %s",
               static_cast<long long>(repeats_size.len), input.shape_str().c_str(),
               out.shape_str().c_str());
    const int lead = out.ndim - input.ndim;
    for (int d = 0; d < out.ndim; ++d) {
      const int64_t base = d < lead ? 1 : input.sizes[d - lead];
      SIMK_CHECK(repeats_size.data[d] >= 0 && out.sizes[d] == base * repeats_size.data[d],
                 "out has shape %s; input %s repeated gives another size at dim %d",
                 out.shape_str().c_str(), input.shape_str().c_str(), d);
    }
    launch(kernel, ctx, out, [=] {
      gather_elements(out, input, [&](const int64_t* idx, int64_t) {
        int64_t off = 0;
        for (int d = 0; d < input.ndim; ++d)
          off += (idx[d + lead] % input.sizes[d]) * input.strides[d];
        return off;
      });
    });
  });
}
