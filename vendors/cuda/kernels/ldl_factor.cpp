// Scaffolded by `make new-vendor` from generated/vendor_stubs/ldl_factor.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `ldl_factor` family: LDL^T factorization with Bunch-Kaufman pivoting of
// a batch of symmetric matrices read from the lower triangle (LAPACK sytrf, as ATen's CPU kernel);
// pivots LAPACK's (1-based, negative for 2 x 2 blocks), info sytrf's per matrix. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// LDL^T factorization with Bunch-Kaufman pivoting of a batch of symmetric matrices read from the
// lower triangle (LAPACK sytrf, as ATen's CPU kernel); pivots LAPACK's (1-based, negative for 2 x 2
// blocks), info sytrf's per matrix.
//   LD [out] dtypes: float32, float64
//   pivots [out] dtypes: int32
//   info [out] dtypes: int32
//   input [in] dtypes: float32, float64
extern "C" diopiError_t diopiLinalgLdlFactorEx(diopiContextHandle_t ctx, diopiTensorHandle_t LD,
                                               diopiTensorHandle_t pivots, diopiTensorHandle_t info,
                                               diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)LD;
  (void)pivots;
  (void)info;
  (void)input;
  return diopiNoImplement;
}
