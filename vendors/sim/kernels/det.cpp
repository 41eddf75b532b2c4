// The `det` family: determinant and (sign, log |det|) of a batch of square matrices from their LU
// factorization, as ATen's CPU kernels compute them: getrf of A^T when A is contiguous (det A^T =
// det A), of A otherwise; det = (-1)^(row swaps) * prod(diag U). DIOPI: diopiLinalgDet,
// diopiLinalgSlogdet.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

// The checked input, LU [*, n, n] and pivots [*, n] of a determinant.
struct DetArgs {
  View a, lu, pivots;
};

DetArgs det_args(diopiConstTensorHandle_t A_h, diopiTensorHandle_t LU_h,
                 diopiTensorHandle_t pivots_h) {
  DetArgs d;
  d.a = input_view(A_h, "A");
  check_matrix_input(d.a, /*square=*/true, "A");
  const int64_t n = d.a.sizes[d.a.ndim - 1];
  d.lu = batched_output(LU_h, d.a, d.a.dtype, {n, n}, "LU");
  d.pivots = batched_output(pivots_h, d.a, diopi_dtype_int32, {n}, "pivots");
  return d;
}

// Factors every matrix (its transpose when A is contiguous, as ATen) and calls
// per_matrix(b, diag_u, n, swaps_odd) with U's diagonal.
template <class T, class F>
void for_each_factor(const DetArgs& d, F&& per_matrix) {
  const int64_t n = d.a.sizes[d.a.ndim - 1];
  const View m = d.a.is_contiguous() ? matrix_transpose(d.a) : d.a;
  std::vector<T> diag(static_cast<size_t>(n));
  if (n == 0) {  // the empty product: det 1
    for (int64_t b = 0; b < batch_count(d.a, 2); ++b) per_matrix(b, diag, false);
    return;
  }
  factor_batch<T>(m, d.lu, d.pivots, [&](int64_t b, const std::vector<T>& lu, bool odd) {
    for (int64_t i = 0; i < n; ++i)
      diag[static_cast<size_t>(i)] = lu[static_cast<size_t>(i * n + i)];
    per_matrix(b, diag, odd);
  });
}

void linalg_det(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t result_h,
                diopiTensorHandle_t LU_h, diopiTensorHandle_t pivots_h,
                diopiConstTensorHandle_t A_h) {
  const DetArgs d = det_args(A_h, LU_h, pivots_h);
  const View result = batched_output(result_h, d.a, d.a.dtype, {}, "result");
  launch(kernel, ctx, result, [=] {
    float_or_double(d.a.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      std::vector<T> det(static_cast<size_t>(batch_count(d.a, 2)));
      for_each_factor<T>(d, [&](int64_t b, const std::vector<T>& diag, bool odd) {
        T prod = T(1);
        for (T u : diag) prod *= u;
        det[static_cast<size_t>(b)] = odd ? -prod : prod;
      });
      unpack(result, det);
    });
  });
}

void linalg_slogdet(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t sign_h,
                    diopiTensorHandle_t logabsdet_h, diopiTensorHandle_t LU_h,
                    diopiTensorHandle_t pivots_h, diopiConstTensorHandle_t A_h) {
  const DetArgs d = det_args(A_h, LU_h, pivots_h);
  const View sign = batched_output(sign_h, d.a, d.a.dtype, {}, "sign");
  const View logabsdet = batched_output(logabsdet_h, d.a, d.a.dtype, {}, "logabsdet");
  launch(kernel, ctx, sign, [=] {
    float_or_double(d.a.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      const size_t batches = static_cast<size_t>(batch_count(d.a, 2));
      std::vector<T> sgn(batches), logabs(batches);
      for_each_factor<T>(d, [&](int64_t b, const std::vector<T>& diag, bool odd) {
        T s = odd ? T(-1) : T(1), l = T(0);
        for (T u : diag) {
          s *= u > T(0) ? T(1) : (u < T(0) ? T(-1) : T(0));  // 0 for a singular matrix
          l += std::log(std::abs(u));                        // -inf for a singular matrix
        }
        sgn[static_cast<size_t>(b)] = s;
        logabs[static_cast<size_t>(b)] = l;
      });
      unpack(sign, sgn);
      unpack(logabsdet, logabs);
    });
  });
}

}  // namespace

diopiError_t diopiLinalgDet(diopiContextHandle_t ctx, diopiTensorHandle_t result,
                            diopiTensorHandle_t LU, diopiTensorHandle_t pivots,
                            diopiConstTensorHandle_t A) {
  SIMK_KERNEL(diopiLinalgDet);
  return guarded(kernel.name, [&] { linalg_det(kernel, ctx, result, LU, pivots, A); });
}

diopiError_t diopiLinalgSlogdet(diopiContextHandle_t ctx, diopiTensorHandle_t sign,
                                diopiTensorHandle_t logabsdet, diopiTensorHandle_t LU,
                                diopiTensorHandle_t pivots, diopiConstTensorHandle_t A) {
  SIMK_KERNEL(diopiLinalgSlogdet);
  return guarded(kernel.name, [&] { linalg_slogdet(kernel, ctx, sign, logabsdet, LU, pivots, A); });
}
