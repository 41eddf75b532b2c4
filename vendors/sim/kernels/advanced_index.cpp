// The `advanced_index` family: Advanced indexing input[indices[0], ..., indices[nums-1]]; a null
// entry keeps its dim whole, int64 entries broadcast together, a bool entry stands for the
// positions of its true elements; the kernel allocates the result because a bool entry makes its
// shape depend on the data. DIOPI: diopiIndex.
#include "common/advanced_index.h"

#include <diopi/prototypes.h>

#include <cstring>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

diopiDevice_t device_of(diopiConstTensorHandle_t t) {
  diopiDevice_t device = diopi_device;
  SIMK_CHECK(diopiGetTensorDevice(t, &device) == diopiSuccess, "cannot read input's device");
  return device;
}

}  // namespace

diopiError_t diopiIndex(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                        diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t* indices,
                        int64_t nums) {
  SIMK_KERNEL(diopiIndex);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    synchronize_on(ctx);  // a bool entry's values decide the result's shape
    Resolved r = resolve(input, indices, nums);
    diopiSize_t size{r.shape.sizes, r.shape.ndim};
    diopiTensorHandle_t t = nullptr;
    SIMK_CHECK(diopiRequireTensor(ctx, &t, &size, nullptr, input.dtype, device_of(input_h)) ==
                   diopiSuccess,
               "cannot allocate the output %s", r.shape.shape_str().c_str());
    const View o = output_view(t, "out");
    launch(kernel, ctx, o, [o, input, offsets = std::move(r.offsets)] {
      const int64_t isz = input.itemsize();
      for (size_t i = 0; i < offsets.size(); ++i) {
        std::memcpy(o.data + static_cast<int64_t>(i) * isz, input.data + offsets[i] * isz,
                    static_cast<size_t>(isz));
      }
    });
    *out = t;
  });
}
