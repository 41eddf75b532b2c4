// The `repeat_interleave` family: Each index i of a 1-D repeats tensor repeated repeats[i]
// times, in order (output_size, when given, must be that total); the kernel allocates the output
// because its length depends on the data. DIOPI extension: diopiRepeatInterleave.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/launch.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiRepeatInterleave(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                                   diopiConstTensorHandle_t repeats_h, const int64_t* output_size) {
  SIMK_KERNEL(diopiRepeatInterleave);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View repeats = input_view(repeats_h, "repeats");
    check_dtype(repeats, dtype_bit(diopi_dtype_int32) | dtype_bit(diopi_dtype_int64), "repeats");
    SIMK_CHECK(repeats.ndim == 1, "repeat_interleave only accept 1D vector as repeat, got %s",
               repeats.shape_str().c_str());
    // The output's length is the sum of the repeats: wait for them, then read them here.
    synchronize_on(ctx);
    const std::vector<int64_t> r = packed<int64_t>(repeats);
    int64_t total = 0;
    for (const int64_t n : r) {
      SIMK_CHECK(n >= 0, "repeats can not be negative");
      total += n;
    }
    SIMK_CHECK(output_size == nullptr || *output_size == total,
               "output_size (%lld) must be the sum of repeats (%lld)",
               static_cast<long long>(output_size ? *output_size : 0),
               static_cast<long long>(total));
    std::vector<int64_t> idx;
    idx.reserve(static_cast<size_t>(total));
    for (size_t i = 0; i < r.size(); ++i) idx.insert(idx.end(), r[i], static_cast<int64_t>(i));
    int64_t shape[1] = {total};
    diopiSize_t size{shape, 1};
    diopiDevice_t device = diopi_device;
    SIMK_CHECK(diopiGetTensorDevice(repeats_h, &device) == diopiSuccess,
               "cannot read repeats' device");
    diopiTensorHandle_t t = nullptr;
    SIMK_CHECK(diopiRequireTensor(ctx, &t, &size, nullptr, repeats.dtype, device) == diopiSuccess,
               "cannot allocate the output [%lld]", static_cast<long long>(total));
    const View o = output_view(t, "out");
    launch(kernel, ctx, o, [o, idx] {
      std::vector<int64_t> v = idx;
      unpack(o, v);
    });
    *out = t;
  });
}
