// Scaffolded by `make new-vendor` from generated/vendor_stubs/svd.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `svd` family: Singular value decomposition of a batch of matrices [*, m,
// n] (LAPACK gesdd), A = U diag(S) Vh, S descending; U and Vh square (full_matrices) or thin, and
// only with compute_uv. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Singular value decomposition of a batch of matrices [*, m, n] (LAPACK gesdd), A = U diag(S) Vh, S
// descending; U and Vh square (full_matrices) or thin, and only with compute_uv.
//   U [out] dtypes: float32, float64
//   S [out] dtypes: float32, float64
//   Vh [out] dtypes: float32, float64
//   A [in] dtypes: float32, float64
//   full_matrices [in]
//   compute_uv [in]
extern "C" diopiError_t diopiLinalgSvd(diopiContextHandle_t ctx, diopiTensorHandle_t U,
                                       diopiTensorHandle_t S, diopiTensorHandle_t Vh,
                                       diopiConstTensorHandle_t A, bool full_matrices,
                                       bool compute_uv) {
  (void)ctx;
  (void)U;
  (void)S;
  (void)Vh;
  (void)A;
  (void)full_matrices;
  (void)compute_uv;
  return diopiNoImplement;
}
