// Vector products: dot / vdot (real dtypes: the same), addmv and mv. float32 / float64,
// accumulated in double over contiguous copies and written back in out's dtype and layout.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

void dot(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
         diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t other_h) {
  const View out = output_view(out_h, "out");
  const View a = input_view(input_h, "input");
  const View b = input_view(other_h, "other");
  check_dtype(out, kFloat32Or64, "out");
  check_dtype(a, kFloat32Or64, "input");
  check_dtype(b, kFloat32Or64, "other");
  SIMK_CHECK(a.ndim == 1 && b.ndim == 1, "1D tensors expected, but got %dD and %dD tensors", a.ndim,
             b.ndim);
  SIMK_CHECK(a.sizes[0] == b.sizes[0], "inconsistent tensor size: %lld and %lld elements",
             static_cast<long long>(a.sizes[0]), static_cast<long long>(b.sizes[0]));
  SIMK_CHECK(out.numel() == 1, "out has shape %s, expected a single element",
             out.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    const std::vector<double> x = packed<double>(a), y = packed<double>(b);
    double s = 0;
    for (size_t i = 0; i < x.size(); ++i) s += x[i] * y[i];
    std::vector<double> r{s};
    unpack(out, r);
  });
}

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

diopiError_t diopiDot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiDot);
  return guarded(kernel.name, [&] { dot(kernel, ctx, out, input, other); });
}

diopiError_t diopiVdot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                       diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiVdot);
  return guarded(kernel.name, [&] { dot(kernel, ctx, out, input, other); });
}

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
