// The `qr` family: QR decomposition of a batch of matrices [*, m, n] with LAPACK geqrf + orgqr,
// as ATen's CPU kernel (optimal workspaces; R the upper triangle of geqrf's result, Q orgqr's
// product of its k = min(m, n) reflectors). DIOPI: diopiLinalgQR.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

struct QrArgs {
  View a, q, r;
  bool compute_q, complete;
  int64_t m, n, k;
};

template <class T>
void qr_batch(const QrArgs& p) {
  const int64_t m = p.m, n = p.n, k = p.k;
  const int64_t qcols = p.complete ? m : k, rrows = p.complete ? m : k;
  const int lda = lapack::dim(std::max<int64_t>(m, 1));
  std::vector<T> tau(static_cast<size_t>(std::max<int64_t>(k, 1)));
  // Q's columns: the reflectors (geqrf's first k columns) and room for the rest
  std::vector<T> q(static_cast<size_t>(std::max<int64_t>(m * std::max(qcols, n), 1)));
  int info = 0;
  T query = 0;
  lapack::geqrf(lapack::dim(m), lapack::dim(n), q.data(), lda, tau.data(), &query, -1, &info);
  lapack::check_argument_info(info, "geqrf");
  std::vector<T> work(static_cast<size_t>(lapack::workspace(query)));
  if (p.compute_q) {
    lapack::orgqr(lapack::dim(m), lapack::dim(qcols), lapack::dim(k), q.data(), lda, tau.data(),
                  &query, -1, &info);
    lapack::check_argument_info(info, "orgqr");
    work.resize(std::max(work.size(), static_cast<size_t>(lapack::workspace(query))));
  }
  for (int64_t b = 0; b < batch_count(p.a, 2); ++b) {
    std::vector<T> qr = column_major_copy<T>(batch_item(p.a, 2, b));
    if (m != 0 && n != 0) {
      lapack::geqrf(lapack::dim(m), lapack::dim(n), qr.data(), lda, tau.data(), work.data(),
                    static_cast<int>(work.size()), &info);
      lapack::check_argument_info(info, "geqrf");
    }
    // R: the upper triangle of the first rrows rows (rows past n are zero)
    std::vector<T> r(static_cast<size_t>(std::max<int64_t>(rrows * n, 1)), T(0));
    for (int64_t j = 0; j < n; ++j) {
      for (int64_t i = 0; i <= std::min(j, rrows - 1); ++i) {
        r[static_cast<size_t>(i + j * rrows)] = qr[static_cast<size_t>(i + j * m)];
      }
    }
    store_matrix(batch_item(p.r, 2, b), r.data(), rrows);
    if (!p.compute_q || m == 0 || qcols == 0) continue;
    std::fill(q.begin(), q.end(), T(0));
    std::memcpy(q.data(), qr.data(), sizeof(T) * static_cast<size_t>(m * std::min(qcols, n)));
    lapack::orgqr(lapack::dim(m), lapack::dim(qcols), lapack::dim(k), q.data(), lda, tau.data(),
                  work.data(), static_cast<int>(work.size()), &info);
    lapack::check_argument_info(info, "orgqr");
    store_matrix(batch_item(p.q, 2, b), q.data(), m);
  }
}

void linalg_qr(const Kernel& kernel, diopiContextHandle_t ctx, diopiConstTensorHandle_t A_h,
               const char* mode, diopiTensorHandle_t Q_h, diopiTensorHandle_t R_h) {
  QrArgs p{};
  p.a = input_view(A_h, "A");
  check_matrix_input(p.a, /*square=*/false, "A");
  const std::string m = mode ? mode : "";
  // ATen raises on another mode: declined, so it does
  if (m != "reduced" && m != "complete" && m != "r") {
    failf(diopiNoImplement, "mode must be 'reduced', 'complete' or 'r', got '%s'", m.c_str());
  }
  p.compute_q = m != "r";
  p.complete = m == "complete";
  p.m = p.a.sizes[p.a.ndim - 2];
  p.n = p.a.sizes[p.a.ndim - 1];
  p.k = std::min(p.m, p.n);
  p.r = batched_output(R_h, p.a, p.a.dtype, {p.complete ? p.m : p.k, p.n}, "R");
  if (p.compute_q) p.q = batched_output(Q_h, p.a, p.a.dtype, {p.m, p.complete ? p.m : p.k}, "Q");
  launch(kernel, ctx, p.r, [p] {
    float_or_double(p.a.dtype, [&](auto tag) { qr_batch<TypeOf<decltype(tag)>>(p); });
  });
}

}  // namespace

diopiError_t diopiLinalgQR(diopiContextHandle_t ctx, diopiConstTensorHandle_t A, const char* mode,
                           diopiTensorHandle_t Q, diopiTensorHandle_t R) {
  SIMK_KERNEL(diopiLinalgQR);
  return guarded(kernel.name, [&] { linalg_qr(kernel, ctx, A, mode, Q, R); });
}
