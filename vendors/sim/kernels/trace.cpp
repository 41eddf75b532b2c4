// The `trace` family: The sum of a matrix's main diagonal, accumulated in double (floating) or
// int64 (integral inputs give an int64 result). DIOPI extension: diopiTrace.
#include <diopi/prototypes.h>

#include <algorithm>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiTrace(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                        diopiConstTensorHandle_t input_h) {
  SIMK_KERNEL(diopiTrace);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloat32Or64 | kIntegral, "input");
    SIMK_CHECK(input.ndim == 2, "trace: expected a matrix, got input %s",
               input.shape_str().c_str());
    const bool floating = is_floating(input.dtype);
    SIMK_CHECK(out.numel() == 1 && out.dtype == (floating ? input.dtype : diopi_dtype_int64),
               "out (%s, %s) must be one element of %s", out.shape_str().c_str(),
               dtype_name(out.dtype), floating ? dtype_name(input.dtype) : "int64");
    // The diagonal as a strided 1-D view: summed in ATen's accumulate type (double, int64).
    View diag = input;
    diag.ndim = 1;
    diag.sizes[0] = std::min(input.sizes[0], input.sizes[1]);
    diag.strides[0] = input.strides[0] + input.strides[1];
    launch(kernel, ctx, out, [=] {
      auto run = [&](auto zero) {
        using A = decltype(zero);
        A sum = 0;
        for (const A v : packed<A>(diag)) sum += v;
        std::vector<A> r{sum};
        unpack(out, r);
      };
      if (floating) {
        run(0.0);
      } else {
        run(int64_t{0});
      }
    });
  });
}
