// Scaffolded by `make new-vendor` from generated/vendor_stubs/asinh.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `asinh` family: Element-wise inverse hyperbolic sine.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise inverse hyperbolic sine.
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiAsinh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Element-wise inverse hyperbolic sine.
//   input [inout] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiAsinhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}
