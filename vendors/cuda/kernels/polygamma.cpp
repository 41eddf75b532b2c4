// Scaffolded by `make new-vendor` from generated/vendor_stubs/polygamma.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `polygamma` family: Element-wise n-th derivative of the digamma function
// (n = 0 is digamma itself). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise n-th derivative of the digamma function (n = 0 is digamma itself).
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
//   n [in]
extern "C" diopiError_t diopiPolygamma(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, int64_t n) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)n;
  return diopiNoImplement;
}

// Element-wise n-th derivative of the digamma function (n = 0 is digamma itself).
//   input [inout] dtypes: bfloat16, float32, float64
//   n [in]
extern "C" diopiError_t diopiPolygammaInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          int64_t n) {
  (void)ctx;
  (void)input;
  (void)n;
  return diopiNoImplement;
}
