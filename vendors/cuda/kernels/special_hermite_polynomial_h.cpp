// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/special_hermite_polynomial_h.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `special_hermite_polynomial_h` family: Physicists' Hermite polynomial
// H_n(x), n truncated to an integer (0 for n < 0), with broadcasting. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Physicists' Hermite polynomial H_n(x), n truncated to an integer (0 for n < 0), with
// broadcasting.
//   out [out] dtypes: float32, float64
//   x [in] dtypes: float32, float64
//   n [in] dtypes: float32, float64
extern "C" diopiError_t diopiSpecialHermitePolynomialH(diopiContextHandle_t ctx,
                                                       diopiTensorHandle_t out,
                                                       diopiConstTensorHandle_t x,
                                                       diopiConstTensorHandle_t n) {
  (void)ctx;
  (void)out;
  (void)x;
  (void)n;
  return diopiNoImplement;
}
