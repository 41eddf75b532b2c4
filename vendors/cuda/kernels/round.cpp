// Scaffolded by `make new-vendor` from generated/vendor_stubs/round.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `round` family: Element-wise rounding to the nearest integer, halves to
// even; with decimals, to that many decimal places (negative counts round to tens, hundreds, ...).
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise rounding to the nearest integer, halves to even; with decimals, to that many decimal
// places (negative counts round to tens, hundreds, ...).
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiRound(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Element-wise rounding to the nearest integer, halves to even; with decimals, to that many decimal
// places (negative counts round to tens, hundreds, ...).
//   input [inout] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiRoundInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}

// Element-wise rounding to the nearest integer, halves to even; with decimals, to that many decimal
// places (negative counts round to tens, hundreds, ...).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   decimals [in]
extern "C" diopiError_t diopiRoundDecimals(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input, int64_t decimals) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)decimals;
  return diopiNoImplement;
}
