// Scaffolded by `make new-vendor` from generated/vendor_stubs/lu_factor.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `lu_factor` family: LU factorization with partial pivoting of a batch of
// matrices [*, m, n] (LAPACK getrf); L (unit diagonal) and U packed in LU, pivots the 1-based row
// swaps, info getrf's per matrix. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill
// the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// LU factorization with partial pivoting of a batch of matrices [*, m, n] (LAPACK getrf); L (unit
// diagonal) and U packed in LU, pivots the 1-based row swaps, info getrf's per matrix.
//   LU [out] dtypes: float32, float64
//   pivots [out] dtypes: int32
//   info [out] dtypes: int32
//   A [in] dtypes: float32, float64
extern "C" diopiError_t diopiLinalgLuFactorEx(diopiContextHandle_t ctx, diopiTensorHandle_t LU,
                                              diopiTensorHandle_t pivots, diopiTensorHandle_t info,
                                              diopiConstTensorHandle_t A) {
  (void)ctx;
  (void)LU;
  (void)pivots;
  (void)info;
  (void)A;
  return diopiNoImplement;
}
