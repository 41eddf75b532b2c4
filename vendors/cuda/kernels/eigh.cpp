// Scaffolded by `make new-vendor` from generated/vendor_stubs/eigh.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `eigh` family: Eigenvalues (ascending) and, with compute_v, eigenvectors
// of a batch of symmetric matrices read from the UPLO ('L' or 'U') triangle (LAPACK syevd). Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Eigenvalues (ascending) and, with compute_v, eigenvectors of a batch of symmetric matrices read
// from the UPLO ('L' or 'U') triangle (LAPACK syevd).
//   eigenvalues [out] dtypes: float32, float64
//   eigenvectors [out] dtypes: float32, float64
//   A [in] dtypes: float32, float64
//   UPLO [in]
//   compute_v [in]
extern "C" diopiError_t diopiLinalgEigh(diopiContextHandle_t ctx, diopiTensorHandle_t eigenvalues,
                                        diopiTensorHandle_t eigenvectors,
                                        diopiConstTensorHandle_t A, const char* UPLO,
                                        bool compute_v) {
  (void)ctx;
  (void)eigenvalues;
  (void)eigenvectors;
  (void)A;
  (void)UPLO;
  (void)compute_v;
  return diopiNoImplement;
}
