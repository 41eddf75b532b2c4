// The `stack` family: Stacks equally shaped tensors along a new dim. DIOPI: diopiStack.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/tensor_list.h"

using namespace simk;

diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t* tensors, int64_t numTensors, int64_t dim) {
  SIMK_KERNEL(diopiStack);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kAllTypes, "out");
    const std::vector<View> parts = list_views(tensors, numTensors, "tensors");
    const int d = wrap_dim(dim, out.ndim);
    SIMK_CHECK(out.sizes[d] == numTensors, "out has %lld elements along dim %d for %lld tensors",
               static_cast<long long>(out.sizes[d]), d, static_cast<long long>(numTensors));
    const View slot = select(out, d, 0);
    for (const View& v : parts)
      SIMK_CHECK(same_shape(v, slot), "tensor %s does not match out %s without dim %d",
                 v.shape_str().c_str(), out.shape_str().c_str(), d);
    launch(kernel, ctx, out, [=] {
      for (size_t i = 0; i < parts.size(); ++i)
        cast_copy(select(out, d, static_cast<int64_t>(i)), parts[i]);
    });
  });
}
