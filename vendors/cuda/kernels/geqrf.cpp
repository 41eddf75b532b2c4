// Scaffolded by `make new-vendor` from generated/vendor_stubs/geqrf.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `geqrf` family: LAPACK geqrf of a batch of matrices [*, m, n] (as ATen's
// CPU kernel); a holds R above the diagonal and the Householder reflectors below it, tau their k =
// min(m, n) scalars. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// LAPACK geqrf of a batch of matrices [*, m, n] (as ATen's CPU kernel); a holds R above the
// diagonal and the Householder reflectors below it, tau their k = min(m, n) scalars.
//   out [out] dtypes: float32, float64
//   tau [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
extern "C" diopiError_t diopiGeqrf(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiTensorHandle_t tau, diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)tau;
  (void)input;
  return diopiNoImplement;
}
