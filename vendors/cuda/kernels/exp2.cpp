// Scaffolded by `make new-vendor` from generated/vendor_stubs/exp2.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `exp2` family: Element-wise base-2 exponential, 2 ** input.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise base-2 exponential, 2 ** input.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiExp2(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Element-wise base-2 exponential, 2 ** input.
//   input [inout] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiExp2Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}
