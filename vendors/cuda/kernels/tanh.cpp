// Scaffolded by `make new-vendor` from generated/vendor_stubs/tanh.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `tanh` family: Hyperbolic tangent.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Hyperbolic tangent.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiTanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Hyperbolic tangent.
//   input [inout] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiTanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}

// Hyperbolic tangent.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   output [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiTanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                          diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t output) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)output;
  return diopiNoImplement;
}
