// Scaffolded by `make new-vendor` from generated/vendor_stubs/special_zeta.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `special_zeta` family: Hurwitz zeta function sum over k >= 0 of (other +
// k) ** -input, with broadcasting. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Hurwitz zeta function sum over k >= 0 of (other + k) ** -input, with broadcasting.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   other [in] dtypes: float32, float64
extern "C" diopiError_t diopiSpecialZeta(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
