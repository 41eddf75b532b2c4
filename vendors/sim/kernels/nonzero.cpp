// The `nonzero` family: Indices of the nonzero elements of input (NaN counts as nonzero), one
// row per element in row-major order, as an int64 [count, ndim] tensor the kernel allocates
// because count depends on the data. DIOPI: diopiNonzero.
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

diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                          diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiNonzero);
  return guarded(kernel.name, [&] {
    SIMK_CHECK(out != nullptr, "out is NULL");
    const View input = input_view(input_h, "input");
    check_dtype(input, kAllTypes, "input");
    // The output's shape depends on the input's values: wait for them, then read them here.
    synchronize_on(ctx);
    const std::vector<double> x = packed<double>(input);  // NaN is nonzero
    const int nd = input.ndim;
    std::vector<int64_t> rows;
    int64_t count = 0;
    for (size_t i = 0; i < x.size(); ++i) {
      if (x[i] == 0.0) continue;
      ++count;
      int64_t coord[kMaxDims];
      int64_t rest = static_cast<int64_t>(i);
      for (int d = nd - 1; d >= 0; --d) {
        coord[d] = rest % input.sizes[d];
        rest /= input.sizes[d];
      }
      rows.insert(rows.end(), coord, coord + nd);
    }
    int64_t shape[2] = {count, nd};
    diopiSize_t size{shape, 2};
    diopiDevice_t device = diopi_device;
    SIMK_CHECK(diopiGetTensorDevice(input_h, &device) == diopiSuccess,
               "cannot read input's device");
    diopiTensorHandle_t t = nullptr;
    SIMK_CHECK(
        diopiRequireTensor(ctx, &t, &size, nullptr, diopi_dtype_int64, device) == diopiSuccess,
        "cannot allocate the output [%lld, %d]", static_cast<long long>(shape[0]), nd);
    const View o = output_view(t, "out");
    launch(kernel, ctx, o, [o, rows] {
      std::vector<int64_t> r = rows;
      unpack(o, r);
    });
    *out = t;
  });
}
