// Scaffolded by `make new-vendor` from generated/vendor_stubs/pow.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `pow` family: Element-wise power, out = input ** exponent.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise power, out = input ** exponent.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in]
//   exponent [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       const diopiScalar_t* input,
                                       diopiConstTensorHandle_t exponent) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)exponent;
  return diopiNoImplement;
}
