// Scaffolded by `make new-vendor` from generated/vendor_stubs/det.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `det` family: Determinant of a batch of square matrices from their LU
// factorization (LAPACK getrf, of the transpose when A is contiguous, as ATen), with LU and pivots.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Determinant of a batch of square matrices from their LU factorization (LAPACK getrf, of the
// transpose when A is contiguous, as ATen), with LU and pivots.
//   result [out] dtypes: float32, float64
//   LU [out] dtypes: float32, float64
//   pivots [out] dtypes: int32
//   A [in] dtypes: float32, float64
extern "C" diopiError_t diopiLinalgDet(diopiContextHandle_t ctx, diopiTensorHandle_t result,
                                       diopiTensorHandle_t LU, diopiTensorHandle_t pivots,
                                       diopiConstTensorHandle_t A) {
  (void)ctx;
  (void)result;
  (void)LU;
  (void)pivots;
  (void)A;
  return diopiNoImplement;
}

// Determinant of a batch of square matrices from their LU factorization (LAPACK getrf, of the
// transpose when A is contiguous, as ATen), with LU and pivots.
//   sign [out] dtypes: float32, float64
//   logabsdet [out] dtypes: float32, float64
//   LU [out] dtypes: float32, float64
//   pivots [out] dtypes: int32
//   A [in] dtypes: float32, float64
extern "C" diopiError_t diopiLinalgSlogdet(diopiContextHandle_t ctx, diopiTensorHandle_t sign,
                                           diopiTensorHandle_t logabsdet, diopiTensorHandle_t LU,
                                           diopiTensorHandle_t pivots, diopiConstTensorHandle_t A) {
  (void)ctx;
  (void)sign;
  (void)logabsdet;
  (void)LU;
  (void)pivots;
  (void)A;
  return diopiNoImplement;
}
