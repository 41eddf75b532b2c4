// The `masked_select` family: The elements of input (broadcast with mask) where mask is true, in
// row-major order, as a 1-D tensor the kernel allocates because its length depends on the data.
// DIOPI: diopiMaskedSelect.
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
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                               diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t mask_h) {
  SIMK_KERNEL(diopiMaskedSelect);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View input = input_view(input_h, "input");
    const View mask = input_view(mask_h, "mask");
    check_dtype(input, kAllTypes, "input");
    check_dtype(mask, dtype_bit(diopi_dtype_bool), "mask");
    // The broadcast shape of input and mask (right-aligned).
    View shape;
    shape.ndim = std::max(input.ndim, mask.ndim);
    for (int d = 0; d < shape.ndim; ++d) {
      const int di = d - (shape.ndim - input.ndim), dm = d - (shape.ndim - mask.ndim);
      const int64_t si = di >= 0 ? input.sizes[di] : 1, sm = dm >= 0 ? mask.sizes[dm] : 1;
      SIMK_CHECK(si == sm || si == 1 || sm == 1,
                 "the shape of the mask %s does not match the shape of the input %s",
                 mask.shape_str().c_str(), input.shape_str().c_str());
      shape.sizes[d] = si == 1 ? sm : si;
    }
    const View in_b = broadcast_to(input, shape, "input");
    const View mask_b = broadcast_to(mask, shape, "mask");
    // The output's length depends on the mask's values: wait for them, then read them here.
    synchronize_on(ctx);
    const int64_t n = shape.numel();
    const int64_t isz = input.itemsize();
    std::vector<char> picked;
    int64_t count = 0;
    for (int64_t i = 0; i < n; ++i) {
      if (!*reinterpret_cast<const bool*>(mask_b.data + offset_of(mask_b, i))) continue;
      const char* src = in_b.data + offset_of(in_b, i) * isz;
      picked.insert(picked.end(), src, src + isz);
      ++count;
    }
    int64_t len[1] = {count};
    diopiSize_t size{len, 1};
    diopiDevice_t device = diopi_device;
    SIMK_CHECK(diopiGetTensorDevice(input_h, &device) == diopiSuccess,
               "cannot read input's device");
    diopiTensorHandle_t t = nullptr;
    SIMK_CHECK(diopiRequireTensor(ctx, &t, &size, nullptr, input.dtype, device) == diopiSuccess,
               "cannot allocate the output [%lld]", static_cast<long long>(count));
    const View o = output_view(t, "out");
    launch(kernel, ctx, o, [o, picked] {
      if (!picked.empty()) std::memcpy(o.data, picked.data(), picked.size());
    });
    *out = t;
  });
}
