// The `svd` family: singular value decomposition of a batch of matrices [*, m, n] with LAPACK
// gesdd, as ATen's CPU kernel computes it (jobz 'A', 'S' or 'N'; optimal workspace), so U and
// Vh carry the same signs. DIOPI: diopiLinalgSvd.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

struct SvdArgs {
  View u, s, vh, a;
  bool full_matrices, compute_uv;
  int64_t m, n, k;
};

// An empty matrix's SVD: nothing but, with full_matrices, identities in U and Vh (ATen's).
template <class T>
void empty_svd(const SvdArgs& p) {
  if (!p.compute_uv || !p.full_matrices) return;
  for (const View* out : {&p.u, &p.vh}) {
    const int64_t rows = out->sizes[out->ndim - 2];
    std::vector<T> eye(static_cast<size_t>(std::max<int64_t>(rows * rows, 1)), T(0));
    for (int64_t i = 0; i < rows; ++i) eye[static_cast<size_t>(i * rows + i)] = T(1);
    for (int64_t b = 0; b < batch_count(*out, 2); ++b) {
      store_matrix(batch_item(*out, 2, b), eye.data(), rows);
    }
  }
}

template <class T>
void svd(const SvdArgs& p) {
  if (p.a.numel() == 0) return empty_svd<T>(p);
  const int m = lapack::dim(p.m), n = lapack::dim(p.n), k = lapack::dim(p.k);
  const char jobz = p.compute_uv ? (p.full_matrices ? 'A' : 'S') : 'N';
  const int ucols = p.full_matrices ? m : k, vrows = p.full_matrices ? n : k;
  const int ldu = p.compute_uv ? m : 1, ldvt = p.compute_uv ? vrows : 1;
  std::vector<T> u(p.compute_uv ? static_cast<size_t>(m) * ucols : 1);
  std::vector<T> vt(p.compute_uv ? static_cast<size_t>(vrows) * n : 1);
  std::vector<T> s(static_cast<size_t>(k));
  std::vector<int> iwork(static_cast<size_t>(8) * k);
  int info = 0;
  std::vector<T> a = column_major_copy<T>(batch_item(p.a, 2, 0));
  T query = 0;
  lapack::gesdd(jobz, m, n, a.data(), m, s.data(), u.data(), ldu, vt.data(), ldvt, &query, -1,
                iwork.data(), &info);
  lapack::check_argument_info(info, "gesdd");
  std::vector<T> work(static_cast<size_t>(lapack::workspace(query)));
  const int64_t batches = batch_count(p.a, 2);
  for (int64_t b = 0; b < batches; ++b) {
    if (b > 0) a = column_major_copy<T>(batch_item(p.a, 2, b));
    lapack::gesdd(jobz, m, n, a.data(), m, s.data(), u.data(), ldu, vt.data(), ldvt, work.data(),
                  static_cast<int>(work.size()), iwork.data(), &info);
    // info < 0 also flags a non-finite input (gesdd's argument 4); ATen raises on both
    SIMK_CHECK(info == 0,
               "linalg.svd: The algorithm failed to converge (gesdd info %d): the input matrix "
               "is ill-conditioned, has too many repeated singular values or non-finite values",
               info);
    store_vector(batch_item(p.s, 1, b), s.data());
    if (p.compute_uv) {
      store_matrix(batch_item(p.u, 2, b), u.data(), m);
      store_matrix(batch_item(p.vh, 2, b), vt.data(), vrows);
    }
  }
}

void linalg_svd(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t U_h,
                diopiTensorHandle_t S_h, diopiTensorHandle_t Vh_h, diopiConstTensorHandle_t A_h,
                bool full_matrices, bool compute_uv) {
  SvdArgs p{};
  p.a = input_view(A_h, "A");
  check_matrix_input(p.a, /*square=*/false, "A");
  p.full_matrices = full_matrices;
  p.compute_uv = compute_uv;
  p.m = p.a.sizes[p.a.ndim - 2];
  p.n = p.a.sizes[p.a.ndim - 1];
  p.k = std::min(p.m, p.n);
  p.s = batched_output(S_h, p.a, p.a.dtype, {p.k}, "S");
  if (compute_uv) {
    p.u = batched_output(U_h, p.a, p.a.dtype, {p.m, full_matrices ? p.m : p.k}, "U");
    p.vh = batched_output(Vh_h, p.a, p.a.dtype, {full_matrices ? p.n : p.k, p.n}, "Vh");
  }
  launch(kernel, ctx, p.s,
         [p] { float_or_double(p.a.dtype, [&](auto tag) { svd<TypeOf<decltype(tag)>>(p); }); });
}

}  // namespace

diopiError_t diopiLinalgSvd(diopiContextHandle_t ctx, diopiTensorHandle_t U, diopiTensorHandle_t S,
                            diopiTensorHandle_t Vh, diopiConstTensorHandle_t A, bool full_matrices,
                            bool compute_uv) {
  SIMK_KERNEL(diopiLinalgSvd);
  return guarded(kernel.name,
                 [&] { linalg_svd(kernel, ctx, U, S, Vh, A, full_matrices, compute_uv); });
}
