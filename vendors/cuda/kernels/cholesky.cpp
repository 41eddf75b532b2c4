// Scaffolded by `make new-vendor` from generated/vendor_stubs/cholesky.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `cholesky` family: Cholesky factor of a batch of symmetric
// positive-definite matrices (LAPACK potrf on the lower, or with upper the upper, triangle; the
// other zeroed); info potrf's per matrix (> 0 not positive-definite). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Cholesky factor of a batch of symmetric positive-definite matrices (LAPACK potrf on the lower, or
// with upper the upper, triangle; the other zeroed); info potrf's per matrix (> 0 not
// positive-definite).
//   out [out] dtypes: float32, float64
//   info [out] dtypes: int32
//   mat [in] dtypes: float32, float64
//   upper [in]
//   checkerror [in]
extern "C" diopiError_t diopiCholesky(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiTensorHandle_t info, diopiConstTensorHandle_t mat,
                                      bool upper, bool checkerror) {
  (void)ctx;
  (void)out;
  (void)info;
  (void)mat;
  (void)upper;
  (void)checkerror;
  return diopiNoImplement;
}
