// The `addmv` family: out = beta * input + alpha * (mat @ vec), input broadcast to [mat.size(0)]
// (beta 0 ignores input, NaN included); mv is addmv without input. DIOPI: diopiAddmv, diopiMv.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// out = beta * input + alpha * (mat @ vec); no input (mv) or beta 0 ignores input.
void addmv(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
           diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t mat_h,
           diopiConstTensorHandle_t vec_h, Scalar beta, Scalar alpha) {
  const View out = output_view(out_h, "out");
  const View mat = input_view(mat_h, "mat");
  const View vec = input_view(vec_h, "vec");
  check_dtype(out, kFloat32Or64, "out");
  check_dtype(mat, kFloat32Or64, "mat");
  check_dtype(vec, kFloat32Or64, "vec");
  SIMK_CHECK(mat.ndim == 2 && vec.ndim == 1, "vector + matrix @ vector expected, got %d, %d",
             mat.ndim, vec.ndim);
  SIMK_CHECK(mat.sizes[1] == vec.sizes[0], "size mismatch, got %lldx%lld, %lld",
             static_cast<long long>(mat.sizes[0]), static_cast<long long>(mat.sizes[1]),
             static_cast<long long>(vec.sizes[0]));
  SIMK_CHECK(out.ndim == 1 && out.sizes[0] == mat.sizes[0], "out has shape %s, expected [%lld]",
             out.shape_str().c_str(), static_cast<long long>(mat.sizes[0]));
  const double b = beta.as<double>(), al = alpha.as<double>();
  const bool use_input = input_h != nullptr && b != 0;
  View in;
  if (use_input) {
    in = broadcast_to(input_view(input_h, "input"), out, "input");
    check_dtype(in, kFloat32Or64, "input");
  }
  launch(kernel, ctx, out, [=] {
    const int64_t n = mat.sizes[0], k = mat.sizes[1];
    const std::vector<double> m = packed<double>(mat), v = packed<double>(vec);
    std::vector<double> r = use_input ? packed<double>(in) : std::vector<double>(n, 0.0);
    for (int64_t i = 0; i < n; ++i) {
      double s = 0;
      for (int64_t j = 0; j < k; ++j) s += m[i * k + j] * v[j];
      r[i] = (use_input ? b * r[i] : 0.0) + al * s;
    }
    unpack(out, r);
  });
}

}  // namespace

diopiError_t diopiAddmv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat,
                        diopiConstTensorHandle_t vec, const diopiScalar_t* beta,
                        const diopiScalar_t* alpha) {
  SIMK_KERNEL(diopiAddmv);
  return guarded(kernel.name, [&] {
    addmv(kernel, ctx, out, input, mat, vec, scalar_or(beta, Scalar::of_int(1)),
          scalar_or(alpha, Scalar::of_int(1)));
  });
}

diopiError_t diopiMv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                     diopiConstTensorHandle_t input, diopiConstTensorHandle_t vec) {
  SIMK_KERNEL(diopiMv);
  return guarded(kernel.name, [&] {
    addmv(kernel, ctx, out, nullptr, input, vec, Scalar::of_int(0), Scalar::of_int(1));
  });
}
