// Dense linear algebra of the sim: LAPACK (OpenBLAS exports the Fortran symbols, as a real
// vendor's kernels call cuSOLVER) on column-major copies of each matrix of a batch [*, m, n].
//
// The drivers are the ones ATen's CPU kernels call (gesdd for svd, geqrf + orgqr for qr, syevd
// for eigh, getrf / getrs for lu, inverse, solve and det, potrf for cholesky, sytrf for ldl), with
// the optimal workspace LAPACK reports, so that results match the CPU's to rounding, sign
// conventions included. Float and double only: LAPACK has no 16-bit routines.
#ifndef SIM_KERNELS_COMMON_LAPACK_H_
#define SIM_KERNELS_COMMON_LAPACK_H_

#include <algorithm>
#include <climits>
#include <cstdint>
#include <vector>

#include "dtype.h"
#include "elementwise.h"
#include "error.h"
#include "shape_ops.h"
#include "view.h"

extern "C" {
// Fortran LAPACK (column-major, every argument by pointer, hidden string lengths omitted: each
// character argument is a single char).
void sgesdd_(const char* jobz, const int* m, const int* n, float* a, const int* lda, float* s,
             float* u, const int* ldu, float* vt, const int* ldvt, float* work, const int* lwork,
             int* iwork, int* info);
void dgesdd_(const char* jobz, const int* m, const int* n, double* a, const int* lda, double* s,
             double* u, const int* ldu, double* vt, const int* ldvt, double* work, const int* lwork,
             int* iwork, int* info);
void sgeqrf_(const int* m, const int* n, float* a, const int* lda, float* tau, float* work,
             const int* lwork, int* info);
void dgeqrf_(const int* m, const int* n, double* a, const int* lda, double* tau, double* work,
             const int* lwork, int* info);
void sorgqr_(const int* m, const int* n, const int* k, float* a, const int* lda, const float* tau,
             float* work, const int* lwork, int* info);
void dorgqr_(const int* m, const int* n, const int* k, double* a, const int* lda, const double* tau,
             double* work, const int* lwork, int* info);
void ssyevd_(const char* jobz, const char* uplo, const int* n, float* a, const int* lda, float* w,
             float* work, const int* lwork, int* iwork, const int* liwork, int* info);
void dsyevd_(const char* jobz, const char* uplo, const int* n, double* a, const int* lda, double* w,
             double* work, const int* lwork, int* iwork, const int* liwork, int* info);
void sgetrf_(const int* m, const int* n, float* a, const int* lda, int* ipiv, int* info);
void dgetrf_(const int* m, const int* n, double* a, const int* lda, int* ipiv, int* info);
void sgetrs_(const char* trans, const int* n, const int* nrhs, const float* a, const int* lda,
             const int* ipiv, float* b, const int* ldb, int* info);
void dgetrs_(const char* trans, const int* n, const int* nrhs, const double* a, const int* lda,
             const int* ipiv, double* b, const int* ldb, int* info);
void ssytrf_(const char* uplo, const int* n, float* a, const int* lda, int* ipiv, float* work,
             const int* lwork, int* info);
void dsytrf_(const char* uplo, const int* n, double* a, const int* lda, int* ipiv, double* work,
             const int* lwork, int* info);
void spotrf_(const char* uplo, const int* n, float* a, const int* lda, int* info);
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
}

namespace simk {
namespace lapack {

// Type-generic names over the s / d routines.
inline void gesdd(char jobz, int m, int n, float* a, int lda, float* s, float* u, int ldu,
                  float* vt, int ldvt, float* work, int lwork, int* iwork, int* info) {
  sgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info);
}
inline void gesdd(char jobz, int m, int n, double* a, int lda, double* s, double* u, int ldu,
                  double* vt, int ldvt, double* work, int lwork, int* iwork, int* info) {
  dgesdd_(&jobz, &m, &n, a, &lda, s, u, &ldu, vt, &ldvt, work, &lwork, iwork, info);
}
inline void geqrf(int m, int n, float* a, int lda, float* tau, float* work, int lwork, int* info) {
  sgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info);
}
inline void geqrf(int m, int n, double* a, int lda, double* tau, double* work, int lwork,
                  int* info) {
  dgeqrf_(&m, &n, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(int m, int n, int k, float* a, int lda, const float* tau, float* work, int lwork,
                  int* info) {
  sorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void orgqr(int m, int n, int k, double* a, int lda, const double* tau, double* work,
                  int lwork, int* info) {
  dorgqr_(&m, &n, &k, a, &lda, tau, work, &lwork, info);
}
inline void syevd(char jobz, char uplo, int n, float* a, int lda, float* w, float* work, int lwork,
                  int* iwork, int liwork, int* info) {
  ssyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info);
}
inline void syevd(char jobz, char uplo, int n, double* a, int lda, double* w, double* work,
                  int lwork, int* iwork, int liwork, int* info) {
  dsyevd_(&jobz, &uplo, &n, a, &lda, w, work, &lwork, iwork, &liwork, info);
}
inline void getrf(int m, int n, float* a, int lda, int* ipiv, int* info) {
  sgetrf_(&m, &n, a, &lda, ipiv, info);
}
inline void getrf(int m, int n, double* a, int lda, int* ipiv, int* info) {
  dgetrf_(&m, &n, a, &lda, ipiv, info);
}
inline void getrs(char trans, int n, int nrhs, const float* a, int lda, const int* ipiv, float* b,
                  int ldb, int* info) {
  sgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info);
}
inline void getrs(char trans, int n, int nrhs, const double* a, int lda, const int* ipiv, double* b,
                  int ldb, int* info) {
  dgetrs_(&trans, &n, &nrhs, a, &lda, ipiv, b, &ldb, info);
}
inline void sytrf(char uplo, int n, float* a, int lda, int* ipiv, float* work, int lwork,
                  int* info) {
  ssytrf_(&uplo, &n, a, &lda, ipiv, work, &lwork, info);
}
inline void sytrf(char uplo, int n, double* a, int lda, int* ipiv, double* work, int lwork,
                  int* info) {
  dsytrf_(&uplo, &n, a, &lda, ipiv, work, &lwork, info);
}
inline void potrf(char uplo, int n, float* a, int lda, int* info) {
  spotrf_(&uplo, &n, a, &lda, info);
}
inline void potrf(char uplo, int n, double* a, int lda, int* info) {
  dpotrf_(&uplo, &n, a, &lda, info);
}

// A workspace size LAPACK reported (lwork = -1 query) as an allocation size.
template <class T>
int workspace(T reported) {
  return std::max(1, static_cast<int>(reported));
}

// A dimension as LAPACK's int (KernelError beyond INT_MAX).
inline int dim(int64_t n) {
  SIMK_CHECK(n <= INT_MAX, "matrix dimension %lld exceeds LAPACK's int", static_cast<long long>(n));
  return static_cast<int>(n);
}

// A LAPACK error that is not a property of the data (info < 0: a bad argument).
inline void check_argument_info(int info, const char* routine) {
  SIMK_CHECK(info >= 0, "%s: argument %d has an illegal value", routine, -info);
}

}  // namespace lapack

// ---- batches of matrices ----

// Product of the leading ndim - keep dims: how many items of `keep` trailing dims v holds.
inline int64_t batch_count(const View& v, int keep) {
  int64_t n = 1;
  for (int d = 0; d + keep < v.ndim; ++d) n *= v.sizes[d];
  return n;
}

// Item `b` (row-major over the leading dims) of v: its trailing `keep` dims.
inline View batch_item(const View& v, int keep, int64_t b) {
  View item;
  item.dtype = v.dtype;
  item.ndim = keep;
  int64_t off = 0;
  for (int d = v.ndim - keep - 1; d >= 0; --d) {
    off += (b % v.sizes[d]) * v.strides[d];
    b /= v.sizes[d];
  }
  item.data = v.data + off * v.itemsize();
  for (int d = 0; d < keep; ++d) {
    item.sizes[d] = v.sizes[v.ndim - keep + d];
    item.strides[d] = v.strides[v.ndim - keep + d];
  }
  return item;
}

// A rows x cols column-major matrix at `data` with leading dimension ld, as a View.
template <class T>
View column_major(T* data, int64_t rows, int64_t cols, int64_t ld) {
  View v;
  v.data = reinterpret_cast<char*>(data);
  v.dtype = dtype_of<T>;
  v.ndim = 2;
  v.sizes[0] = rows;
  v.sizes[1] = cols;
  v.strides[0] = 1;
  v.strides[1] = ld;
  return v;
}

// The matrix `m` (2-D view, any dtype and strides) copied into a column-major T buffer.
template <class T>
std::vector<T> column_major_copy(const View& m) {
  std::vector<T> a(static_cast<size_t>(std::max<int64_t>(m.numel(), 1)));
  if (m.numel() != 0) cast_copy(column_major(a.data(), m.sizes[0], m.sizes[1], m.sizes[0]), m);
  return a;
}

// Writes the column-major rows x cols matrix at `src` (leading dimension ld) into `dst`.
template <class T>
void store_matrix(const View& dst, const T* src, int64_t ld) {
  if (dst.numel() == 0) return;
  cast_copy(dst, column_major(const_cast<T*>(src), dst.sizes[0], dst.sizes[1], ld));
}

// Writes a contiguous vector into the 1-D view `dst`.
template <class T>
void store_vector(const View& dst, const T* src) {
  if (dst.numel() == 0) return;
  const int64_t n = dst.sizes[0];
  cast_copy(dst, contiguous_view(const_cast<T*>(src), dtype_of<T>, &n, 1));
}

// Zeroes the strictly lower (keep_upper) or strictly upper triangle of the 2-D view `m`.
template <class T>
void zero_triangle(std::vector<T>& a, int64_t rows, int64_t cols, bool keep_upper) {
  for (int64_t j = 0; j < cols; ++j) {
    for (int64_t i = 0; i < rows; ++i) {
      if (keep_upper ? i > j : i < j) a[static_cast<size_t>(i + j * rows)] = T(0);
    }
  }
}

// A matrix input of a factorization: at least 2 dims, float or double. Declines (diopiNoImplement,
// so ATen's CPU kernel raises its own error) what is not, and `square` non-square matrices.
inline void check_matrix_input(const View& a, bool square, const char* what) {
  check_dtype(a, kFloat32Or64, what);
  if (a.ndim < 2) failf(diopiNoImplement, "%s must have at least 2 dims, got %d", what, a.ndim);
  if (square && a.sizes[a.ndim - 2] != a.sizes[a.ndim - 1]) {
    failf(diopiNoImplement, "%s must be batches of square matrices, got %s", what,
          a.shape_str().c_str());
  }
}

// `out` must have `ref`'s leading (batch) dims followed by `tail`.
inline void check_batched(const View& out, const View& ref, std::initializer_list<int64_t> tail,
                          const char* what) {
  const int batch = ref.ndim - 2;
  bool ok = out.ndim == batch + static_cast<int>(tail.size());
  for (int d = 0; ok && d < batch; ++d) ok = out.sizes[d] == ref.sizes[d];
  int d = batch;
  for (int64_t t : tail) {
    if (!ok) break;
    ok = out.sizes[d++] == t;
  }
  // the output rules shape every output a valid input gives, so a misfit comes from an input
  // ATen rejects: declined, and ATen's CPU kernel raises its own error
  if (!ok) {
    failf(diopiNoImplement, "%s has shape %s, which does not fit the input's %s", what,
          out.shape_str().c_str(), ref.shape_str().c_str());
  }
}

// The matrix transpose of a batch (last two dims swapped), metadata only.
inline View matrix_transpose(const View& v) {
  View t = v;
  std::swap(t.sizes[v.ndim - 2], t.sizes[v.ndim - 1]);
  std::swap(t.strides[v.ndim - 2], t.strides[v.ndim - 1]);
  return t;
}

// getrf of the column-major m x n matrix `a` in place: pivots (1-based, min(m, n) of them) and
// info (> 0: U(info, info) is exactly zero). A zero-sized matrix gives info 0.
template <class T>
int lu_factor(std::vector<T>& a, int64_t m, int64_t n, int* ipiv) {
  int info = 0;
  if (m == 0 || n == 0) return 0;
  lapack::getrf(lapack::dim(m), lapack::dim(n), a.data(), lapack::dim(m), ipiv, &info);
  lapack::check_argument_info(info, "getrf");
  return info;
}

// v with a trailing dim of 1 (a vector right-hand side as a one-column matrix).
inline View unsqueeze_last(const View& v) {
  View u = v;
  u.sizes[v.ndim] = 1;
  u.strides[v.ndim] = 1;
  u.ndim = v.ndim + 1;
  return u;
}

// v's batch dims broadcast to those of `out` (its trailing `keep` dims unchanged); declines
// (diopiNoImplement) when they do not broadcast.
inline View broadcast_batch(const View& v, const View& out, int keep) {
  View ref = out;
  ref.ndim = out.ndim - 2 + keep;
  for (int d = 0; d < keep; ++d) ref.sizes[ref.ndim - keep + d] = v.sizes[v.ndim - keep + d];
  for (int d = 0; d < ref.ndim - keep; ++d) {
    const int vd = d - (ref.ndim - v.ndim);
    if (vd >= 0 && v.sizes[vd] != 1 && v.sizes[vd] != ref.sizes[d]) {
      failf(diopiNoImplement, "batch dims of %s do not broadcast to %s", v.shape_str().c_str(),
            out.shape_str().c_str());
    }
  }
  if (v.ndim > ref.ndim) failf(diopiNoImplement, "%s has too many dims", v.shape_str().c_str());
  return broadcast_to(v, ref, "operand");
}

// An output of a factorization, checked: `dtype`, and `ref`'s batch dims followed by `tail`.
inline View batched_output(diopiTensorHandle_t h, const View& ref, diopiDtype_t dtype,
                           std::initializer_list<int64_t> tail, const char* what) {
  const View v = output_view(h, what);
  check_dtype(v, dtype_bit(dtype), what);
  check_batched(v, ref, tail, what);
  return v;
}

// getrf of every matrix of the batch `m` [*, rows, cols] (at least 1 x 1), stored into lu_out
// and pivots_out; per_matrix(b, lu, swaps_odd) sees each column-major factor. Returns the
// infos.
template <class T, class F>
std::vector<int32_t> factor_batch(const View& m, const View& lu_out, const View& pivots_out,
                                  F&& per_matrix) {
  const int64_t rows = m.sizes[m.ndim - 2], cols = m.sizes[m.ndim - 1];
  const int64_t k = std::min(rows, cols);
  std::vector<int32_t> infos(static_cast<size_t>(batch_count(m, 2)), 0);
  std::vector<int> ipiv(static_cast<size_t>(std::max<int64_t>(k, 1)));
  for (size_t b = 0; b < infos.size() && k != 0; ++b) {
    std::vector<T> lu = column_major_copy<T>(batch_item(m, 2, static_cast<int64_t>(b)));
    infos[b] = lu_factor(lu, rows, cols, ipiv.data());
    bool odd = false;
    for (int64_t i = 0; i < k; ++i) odd ^= ipiv[static_cast<size_t>(i)] != i + 1;
    store_matrix(batch_item(lu_out, 2, static_cast<int64_t>(b)), lu.data(), rows);
    store_vector(batch_item(pivots_out, 1, static_cast<int64_t>(b)), ipiv.data());
    per_matrix(static_cast<int64_t>(b), lu, odd);
  }
  return infos;
}

// Calls f(TypeTag<float>) or f(TypeTag<double>) for a float32 / float64 dtype.
template <class F>
void float_or_double(diopiDtype_t d, F&& f) {
  if (d == diopi_dtype_float64) {
    f(TypeTag<double>{});
  } else {
    f(TypeTag<float>{});
  }
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_LAPACK_H_
