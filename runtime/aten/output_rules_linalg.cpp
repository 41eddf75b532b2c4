// Output rules of the dense linear algebra families (svd, qr, eigh, lu, det, ...): shapes as
// ATen's meta functions give them, for batches of matrices [*, m, n].
#include <algorithm>

#include "opweave/output_rules.h"

namespace opweave {
namespace rules {
namespace {

using Sizes = c10::SmallVector<int64_t, 6>;

// [*, m, n] -> the batch dims; false (and like(A) from the caller) below 2 dims.
bool split(const at::Tensor& A, Sizes& batch, int64_t& m, int64_t& n) {
  if (A.dim() < 2) return false;
  batch.assign(A.sizes().begin(), A.sizes().end() - 2);
  m = A.size(-2);
  n = A.size(-1);
  return true;
}

OutMeta matrices(Sizes batch, int64_t rows, int64_t cols, at::ScalarType dtype) {
  batch.push_back(rows);
  batch.push_back(cols);
  return OutMeta{std::move(batch), dtype};
}

OutMeta none(const at::Tensor& A) { return OutMeta{{0}, A.scalar_type()}; }

// The broadcast of two batch shapes; false when they do not broadcast (the caller keeps a shape
// the kernel declines, and ATen raises its own error).
bool broadcast_batch(at::IntArrayRef a, at::IntArrayRef b, Sizes& out) {
  const size_t ndim = std::max(a.size(), b.size());
  out.assign(ndim, 1);
  for (size_t i = 0; i < ndim; ++i) {
    const int64_t x = i < ndim - a.size() ? 1 : a[i - (ndim - a.size())];
    const int64_t y = i < ndim - b.size() ? 1 : b[i - (ndim - b.size())];
    if (x != y && x != 1 && y != 1) return false;
    out[i] = x == 1 ? y : x;
  }
  return true;
}

// [*broadcast(A batch, B batch), B's last two dims]; like(B) when they do not fit.
OutMeta solve_matrices(const at::Tensor& A, const at::Tensor& B) {
  Sizes batch;
  if (A.dim() < 2 || B.dim() < 2 ||
      !broadcast_batch(A.sizes().slice(0, A.dim() - 2), B.sizes().slice(0, B.dim() - 2), batch)) {
    return like(B);
  }
  return matrices(batch, B.size(-2), B.size(-1), B.scalar_type());
}

}  // namespace

OutMeta svd_u(const at::Tensor& A, bool full_matrices, bool compute_uv) {
  Sizes batch;
  int64_t m = 0, n = 0;
  if (!split(A, batch, m, n)) return like(A);
  if (!compute_uv) return none(A);
  return matrices(batch, m, full_matrices ? m : std::min(m, n), A.scalar_type());
}

OutMeta svd_vh(const at::Tensor& A, bool full_matrices, bool compute_uv) {
  Sizes batch;
  int64_t m = 0, n = 0;
  if (!split(A, batch, m, n)) return like(A);
  if (!compute_uv) return none(A);
  return matrices(batch, full_matrices ? n : std::min(m, n), n, A.scalar_type());
}

OutMeta matrix_diag(const at::Tensor& A) {
  Sizes batch;
  int64_t m = 0, n = 0;
  if (!split(A, batch, m, n)) return like(A);
  batch.push_back(std::min(m, n));
  return OutMeta{std::move(batch), A.scalar_type()};
}

// mode: 'reduced' (Q [m, k], R [k, n]), 'complete' (Q [m, m], R [m, n]), 'r' (no Q, R [k, n]);
// another mode keeps A's shape and the kernel declines it (ATen names the bad mode).
OutMeta qr_q(const at::Tensor& A, c10::string_view mode) {
  Sizes batch;
  int64_t m = 0, n = 0;
  if (!split(A, batch, m, n)) return like(A);
  if (mode == "reduced") return matrices(batch, m, std::min(m, n), A.scalar_type());
  if (mode == "complete") return matrices(batch, m, m, A.scalar_type());
  if (mode == "r") return none(A);
  return like(A);
}

OutMeta qr_r(const at::Tensor& A, c10::string_view mode) {
  Sizes batch;
  int64_t m = 0, n = 0;
  if (!split(A, batch, m, n)) return like(A);
  if (mode == "complete") return matrices(batch, m, n, A.scalar_type());
  if (mode == "reduced" || mode == "r") return matrices(batch, std::min(m, n), n, A.scalar_type());
  return like(A);
}

OutMeta eigh_vectors(const at::Tensor& A, bool compute_v) { return compute_v ? like(A) : none(A); }

OutMeta lu_pivots(const at::Tensor& A) {
  OutMeta meta = matrix_diag(A);
  meta.dtype = at::kInt;
  return meta;
}

OutMeta batch(const at::Tensor& A) {
  if (A.dim() < 2) return like(A);
  return OutMeta{Sizes(A.sizes().begin(), A.sizes().end() - 2), A.scalar_type()};
}

OutMeta batch_info(const at::Tensor& A) {
  OutMeta meta = batch(A);
  meta.dtype = at::kInt;
  return meta;
}

OutMeta lu_solve(const at::Tensor& LU, const at::Tensor& B) { return solve_matrices(LU, B); }

OutMeta solve(const at::Tensor& A, const at::Tensor& B) {
  // numpy's vector case (ATen's linalg_solve_is_vector_rhs): B [n] or B [*, n] under A [*, n, n]
  const bool vector_case = B.dim() == 1 || (A.dim() >= 2 && A.dim() - 1 == B.dim() &&
                                            B.sizes() == A.sizes().slice(0, A.dim() - 1));
  if (!vector_case) return solve_matrices(A, B);
  OutMeta meta = solve_matrices(A, B.unsqueeze(-1));
  if (meta.sizes.size() >= 2) meta.sizes.pop_back();
  return meta;
}

OutMeta eye(int64_t n, int64_t m) {
  TORCH_CHECK(n >= 0, "n must be greater or equal to 0, got ", n);
  TORCH_CHECK(m >= 0, "m must be greater or equal to 0, got ", m);
  return OutMeta{{n, m}, at::kBool};
}

OutMeta cross(const at::Tensor& self, const at::Tensor& other) { return broadcast(self, other); }

}  // namespace rules
}  // namespace opweave
