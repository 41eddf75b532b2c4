// The `solve` family: linear systems A X = B by LU with partial pivoting (LAPACK getrf + getrs),
// batch dims broadcast, as ATen's CPU kernels: linalg_lu_solve solves with a given factorization
// (left=False: A^T X^T = B^T, the transpose flag flipped), _linalg_solve_ex factors A^T when A is
// contiguous and solves with the transpose. DIOPI: diopiLinalgSolveEx, diopiLinalgLuSolve.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

// The systems of one call, every view broadcast to x's batch dims: x = op(M)^-1 rhs per matrix
// with M the LU factor in `lu` (op: trans 'N' or 'T'); x and rhs [*, n, k] (transposed views
// for left=False).
struct Systems {
  View lu, pivots, rhs, x;
  char trans;
  bool check_pivots;  // pivots from the caller (lu_solve) rather than from getrf
};

template <class T>
void solve_systems(const Systems& s) {
  const int64_t n = s.x.sizes[s.x.ndim - 2], k = s.x.sizes[s.x.ndim - 1];
  if (n == 0 || k == 0) return;
  const int nn = lapack::dim(n), kk = lapack::dim(k);
  std::vector<int32_t> ipiv(static_cast<size_t>(n));
  for (int64_t b = 0; b < batch_count(s.x, 2); ++b) {
    std::vector<T> a = column_major_copy<T>(batch_item(s.lu, 2, b));
    cast_copy(contiguous_view(ipiv.data(), diopi_dtype_int32, &n, 1), batch_item(s.pivots, 1, b));
    if (s.check_pivots) {
      // getrs would read outside the matrix: ATen's CPU kernel does not check, the sim must
      for (int64_t i = 0; i < n; ++i) {
        SIMK_CHECK(ipiv[static_cast<size_t>(i)] >= 1 && ipiv[static_cast<size_t>(i)] <= n,
                   "linalg.lu_solve: pivots[%lld] = %d is not a row of a %lld x %lld matrix",
                   static_cast<long long>(i), ipiv[static_cast<size_t>(i)],
                   static_cast<long long>(n), static_cast<long long>(n));
      }
    }
    std::vector<T> x = column_major_copy<T>(batch_item(s.rhs, 2, b));
    int info = 0;
    lapack::getrs(s.trans, nn, kk, a.data(), nn, ipiv.data(), x.data(), nn, &info);
    lapack::check_argument_info(info, "getrs");
    store_matrix(batch_item(s.x, 2, b), x.data(), n);
  }
}

// Systems for a square factor lu [*, n, n] and right-hand sides B [*, n, k] (left) or
// [*, k, n] (right) into out of the rule's shape; declines what does not fit.
Systems systems(const View& lu, const View& pivots, const View& B, const View& out, bool left,
                bool transpose_factor) {
  const int64_t n = lu.sizes[lu.ndim - 1];
  const bool fits = B.ndim >= 2 && out.ndim >= 2 && B.sizes[B.ndim - (left ? 2 : 1)] == n &&
                    B.sizes[B.ndim - 2] == out.sizes[out.ndim - 2] &&
                    B.sizes[B.ndim - 1] == out.sizes[out.ndim - 1];
  if (!fits) {
    failf(diopiNoImplement, "B of shape %s does not fit LU %s", B.shape_str().c_str(),
          lu.shape_str().c_str());
  }
  Systems s;
  s.lu = broadcast_batch(lu, out, 2);
  s.pivots = broadcast_batch(pivots, out, 1);
  s.rhs = broadcast_batch(B, out, 2);
  s.x = out;
  if (!left) {
    s.rhs = matrix_transpose(s.rhs);
    s.x = matrix_transpose(s.x);
  }
  s.trans = (transpose_factor != !left) ? 'T' : 'N';
  s.check_pivots = false;
  return s;
}

void linalg_lu_solve(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                     diopiConstTensorHandle_t LU_h, diopiConstTensorHandle_t pivots_h,
                     diopiConstTensorHandle_t B_h, bool left, bool adjoint) {
  const View lu = input_view(LU_h, "LU");
  check_matrix_input(lu, /*square=*/true, "LU");
  const View pivots = input_view(pivots_h, "pivots");
  const View B = input_view(B_h, "B");
  const View out = output_view(out_h, "out");
  check_dtype(pivots, dtype_bit(diopi_dtype_int32), "pivots");
  check_dtype(B, dtype_bit(lu.dtype), "B");
  check_dtype(out, dtype_bit(lu.dtype), "out");
  check_batched(pivots, lu, {lu.sizes[lu.ndim - 1]}, "pivots");
  Systems s = systems(lu, pivots, B, out, left, adjoint);
  s.check_pivots = true;
  launch(kernel, ctx, out, [=] {
    float_or_double(lu.dtype, [&](auto tag) { solve_systems<TypeOf<decltype(tag)>>(s); });
  });
}

void linalg_solve_ex(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t result_h,
                     diopiTensorHandle_t LU_h, diopiTensorHandle_t pivots_h,
                     diopiTensorHandle_t info_h, diopiConstTensorHandle_t A_h,
                     diopiConstTensorHandle_t B_h, bool left) {
  const View a = input_view(A_h, "A");
  check_matrix_input(a, /*square=*/true, "A");
  const View B = input_view(B_h, "B");
  const View result = output_view(result_h, "result");
  const int64_t n = a.sizes[a.ndim - 1];
  check_dtype(B, dtype_bit(a.dtype), "B");
  check_dtype(result, dtype_bit(a.dtype), "result");
  const View lu = batched_output(LU_h, a, a.dtype, {n, n}, "LU");
  const View pivots = batched_output(pivots_h, a, diopi_dtype_int32, {n}, "pivots");
  const View info = batched_output(info_h, a, diopi_dtype_int32, {}, "info");
  // numpy's vector right-hand side (B [n] or B [*, n] under A [*, n, n]): one column
  bool vector_case = B.ndim == 1;
  if (B.ndim == a.ndim - 1) {
    vector_case = true;
    for (int d = 0; d < B.ndim; ++d) vector_case = vector_case && B.sizes[d] == a.sizes[d];
  }
  if (vector_case && !left) failf(diopiNoImplement, "a vector B with left=False");
  const bool use_transpose = a.is_contiguous();
  const Systems s = systems(lu, pivots, vector_case ? unsqueeze_last(B) : B,
                            vector_case ? unsqueeze_last(result) : result, left, use_transpose);
  launch(kernel, ctx, result, [=] {
    float_or_double(a.dtype, [&](auto tag) {
      using T = TypeOf<decltype(tag)>;
      // factor every A (A^T when contiguous, as ATen) into LU / pivots / info first
      std::vector<int32_t> infos =
          factor_batch<T>(use_transpose ? matrix_transpose(a) : a, lu, pivots,
                          [](int64_t, const std::vector<T>&, bool) {});
      unpack(info, infos);
      solve_systems<T>(s);
    });
  });
}

}  // namespace

diopiError_t diopiLinalgSolveEx(diopiContextHandle_t ctx, diopiTensorHandle_t result,
                                diopiTensorHandle_t LU, diopiTensorHandle_t pivots,
                                diopiTensorHandle_t info, diopiConstTensorHandle_t A,
                                diopiConstTensorHandle_t B, bool left) {
  SIMK_KERNEL(diopiLinalgSolveEx);
  return guarded(kernel.name,
                 [&] { linalg_solve_ex(kernel, ctx, result, LU, pivots, info, A, B, left); });
}

diopiError_t diopiLinalgLuSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t LU, diopiConstTensorHandle_t pivots,
                                diopiConstTensorHandle_t B, bool left, bool adjoint) {
  SIMK_KERNEL(diopiLinalgLuSolve);
  return guarded(kernel.name,
                 [&] { linalg_lu_solve(kernel, ctx, out, LU, pivots, B, left, adjoint); });
}
