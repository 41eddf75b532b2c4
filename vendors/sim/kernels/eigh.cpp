// The `eigh` family: eigenvalues (ascending) and eigenvectors of a batch of symmetric matrices
// with LAPACK syevd on the UPLO triangle, as ATen's CPU kernel (optimal workspaces, so the
// eigenvectors carry the same signs). DIOPI: diopiLinalgEigh.
#include <diopi/prototypes.h>

#include <cstdint>
#include <vector>

#include "common/elementwise.h"
#include "common/lapack.h"

using namespace simk;

namespace {

template <class T>
void eigh_batch(const View& values_out, const View& vectors_out, const View& a, char uplo,
                bool compute_v) {
  const int64_t n64 = a.sizes[a.ndim - 1];
  if (n64 == 0 || batch_count(a, 2) == 0) return;
  const int n = lapack::dim(n64);
  const char jobz = compute_v ? 'V' : 'N';
  std::vector<T> w(static_cast<size_t>(n));
  std::vector<T> v = column_major_copy<T>(batch_item(a, 2, 0));
  T lwork_query = 0;
  int liwork_query = 0, info = 0;
  lapack::syevd(jobz, uplo, n, v.data(), n, w.data(), &lwork_query, -1, &liwork_query, -1, &info);
  lapack::check_argument_info(info, "syevd");
  std::vector<T> work(static_cast<size_t>(lapack::workspace(lwork_query)));
  std::vector<int> iwork(static_cast<size_t>(std::max(1, liwork_query)));
  const int64_t batches = batch_count(a, 2);
  for (int64_t b = 0; b < batches; ++b) {
    if (b > 0) v = column_major_copy<T>(batch_item(a, 2, b));
    lapack::syevd(jobz, uplo, n, v.data(), n, w.data(), work.data(), static_cast<int>(work.size()),
                  iwork.data(), static_cast<int>(iwork.size()), &info);
    // ATen raises on both (a non-finite input makes syevd fail)
    SIMK_CHECK(info == 0,
               "linalg.eigh: The algorithm failed to converge because the input matrix is "
               "ill-conditioned or has too many repeated eigenvalues (syevd info %d)",
               info);
    store_vector(batch_item(values_out, 1, b), w.data());
    if (compute_v) store_matrix(batch_item(vectors_out, 2, b), v.data(), n);
  }
}

void linalg_eigh(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t values_h,
                 diopiTensorHandle_t vectors_h, diopiConstTensorHandle_t A_h, const char* UPLO,
                 bool compute_v) {
  const View a = input_view(A_h, "A");
  check_matrix_input(a, /*square=*/true, "A");
  // ATen takes 'L' or 'U' in either case and raises on anything else: declined, so it does
  const bool valid = UPLO != nullptr && UPLO[0] != '\0' && UPLO[1] == '\0' &&
                     (UPLO[0] == 'L' || UPLO[0] == 'l' || UPLO[0] == 'U' || UPLO[0] == 'u');
  if (!valid) failf(diopiNoImplement, "UPLO must be 'L' or 'U'");
  const char uplo = (UPLO[0] == 'U' || UPLO[0] == 'u') ? 'U' : 'L';
  const int64_t n = a.sizes[a.ndim - 1];
  const View values = batched_output(values_h, a, a.dtype, {n}, "eigenvalues");
  const View vectors =
      compute_v ? batched_output(vectors_h, a, a.dtype, {n, n}, "eigenvectors") : View{};
  launch(kernel, ctx, values, [=] {
    float_or_double(a.dtype, [&](auto tag) {
      eigh_batch<TypeOf<decltype(tag)>>(values, vectors, a, uplo, compute_v);
    });
  });
}

}  // namespace

diopiError_t diopiLinalgEigh(diopiContextHandle_t ctx, diopiTensorHandle_t eigenvalues,
                             diopiTensorHandle_t eigenvectors, diopiConstTensorHandle_t A,
                             const char* UPLO, bool compute_v) {
  SIMK_KERNEL(diopiLinalgEigh);
  return guarded(kernel.name,
                 [&] { linalg_eigh(kernel, ctx, eigenvalues, eigenvectors, A, UPLO, compute_v); });
}
