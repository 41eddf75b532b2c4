// The `addr` family: out = beta * input + alpha * outer(vec1, vec2), input broadcast to
// [vec1.size(0), vec2.size(0)]; beta 0 ignores input (NaN included). Each element is computed
// in double and rounded once, so bfloat16 and float16 carry a single rounding. DIOPI
// extension: diopiAddr.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiAddr(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t vec1_h,
                       diopiConstTensorHandle_t vec2_h, const diopiScalar_t* beta_arg,
                       const diopiScalar_t* alpha_arg) {
  SIMK_KERNEL(diopiAddr);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View v1 = input_view(vec1_h, "vec1");
    const View v2 = input_view(vec2_h, "vec2");
    check_dtype(out, kFloating, "out");
    SIMK_CHECK(v1.dtype == out.dtype && v2.dtype == out.dtype,
               "vec1, vec2 and out must share one dtype");
    SIMK_CHECK(v1.ndim == 1 && v2.ndim == 1, "expected 1-D vectors, got %d-D and %d-D", v1.ndim,
               v2.ndim);
    SIMK_CHECK(out.ndim == 2 && out.sizes[0] == v1.sizes[0] && out.sizes[1] == v2.sizes[0],
               "out has shape %s, expected [%lld, %lld]", out.shape_str().c_str(),
               static_cast<long long>(v1.sizes[0]), static_cast<long long>(v2.sizes[0]));
    const double beta = scalar_or(beta_arg, Scalar::of_int(1)).as<double>();
    const double alpha = scalar_or(alpha_arg, Scalar::of_int(1)).as<double>();
    const bool use_input = input_h != nullptr && beta != 0;
    View in;
    if (use_input) {
      in = broadcast_to(input_view(input_h, "input"), out, "input");
      SIMK_CHECK(in.dtype == out.dtype, "input and out must share one dtype");
    }
    launch(kernel, ctx, out, [=] {
      const int64_t n = v1.sizes[0], m = v2.sizes[0];
      const std::vector<double> a = packed<double>(v1), b = packed<double>(v2);
      std::vector<double> r = use_input ? packed<double>(in) : std::vector<double>(n * m, 0.0);
      for (int64_t i = 0; i < n; ++i) {
        for (int64_t j = 0; j < m; ++j) {
          const double product = alpha * (a[i] * b[j]);
          r[i * m + j] = use_input ? beta * r[i * m + j] + product : product;
        }
      }
      unpack(out, r);
    });
  });
}
