// Scaffolded by `make new-vendor` from generated/vendor_stubs/dropout.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `dropout` family: Zeroes each element with probability p (a bool
// keep-mask drawn by the device generator) and scales the kept ones by 1 / (1 - p). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Zeroes each element with probability p (a bool keep-mask drawn by the device generator) and
// scales the kept ones by 1 / (1 - p).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   mask [out] dtypes: bool
//   input [in] dtypes: float16, bfloat16, float32, float64
//   p [in]
//   train [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiTensorHandle_t mask, diopiConstTensorHandle_t input,
                                     double p, bool train, diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)mask;
  (void)input;
  (void)p;
  (void)train;
  (void)generator;
  return diopiNoImplement;
}

// grad_input = grad_output * mask * scale (scale is 1 / (1 - p), or 0 when p is 1).
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
//   scale [in]
extern "C" diopiError_t diopiDropoutBackward(diopiContextHandle_t ctx,
                                             diopiTensorHandle_t grad_input,
                                             diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t mask, double scale) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)mask;
  (void)scale;
  return diopiNoImplement;
}
