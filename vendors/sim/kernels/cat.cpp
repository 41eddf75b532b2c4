// The `cat` family: Concatenates tensors along dim (1-D empty tensors are skipped, as ATen
// does). DIOPI: diopiCat.
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

diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                      diopiConstTensorHandle_t* tensors, int64_t num_inputs, int64_t dim) {
  SIMK_KERNEL(diopiCat);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kAllTypes, "out");
    std::vector<View> parts;
    for (const View& v : list_views(tensors, num_inputs, "tensors"))
      if (!(v.ndim == 1 && v.sizes[0] == 0)) parts.push_back(v);  // ATen's legacy skip
    if (parts.empty()) {
      SIMK_CHECK(out.numel() == 0, "out has shape %s; all inputs are empty",
                 out.shape_str().c_str());
      return;
    }
    SIMK_CHECK(out.ndim > 0, "zero-dimensional tensors cannot be concatenated");
    const int d = wrap_dim(dim, out.ndim);
    int64_t total = 0;
    for (const View& v : parts) {
      SIMK_CHECK(v.ndim == out.ndim, "tensor %s does not match out %s", v.shape_str().c_str(),
                 out.shape_str().c_str());
      for (int k = 0; k < out.ndim; ++k)
        SIMK_CHECK(k == d || v.sizes[k] == out.sizes[k],
                   "tensor %s does not match out %s "
                   "outside dim %d",
                   v.shape_str().c_str(), out.shape_str().c_str(), d);
      total += v.sizes[d];
    }
    SIMK_CHECK(total == out.sizes[d], "out has %lld elements along dim %d, the inputs %lld",
               static_cast<long long>(out.sizes[d]), d, static_cast<long long>(total));
    launch(kernel, ctx, out, [=] {
      int64_t offset = 0;
      for (const View& v : parts) {
        cast_copy(narrow(out, d, offset, v.sizes[d]), v);
        offset += v.sizes[d];
      }
    });
  });
}
