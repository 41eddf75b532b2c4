// Scaffolded by `make new-vendor` from generated/vendor_stubs/hardswish.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `hardswish` family: Hard swish, x * relu6(x + 3) / 6, and its backward.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Hard swish, x * relu6(x + 3) / 6, and its backward.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiHardswish(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Hard swish, x * relu6(x + 3) / 6, and its backward.
//   input [inout] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiHardswishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}

// Hard swish, x * relu6(x + 3) / 6, and its backward.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiHardswishBackward(diopiContextHandle_t ctx,
                                               diopiTensorHandle_t grad_input,
                                               diopiConstTensorHandle_t grad_output,
                                               diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  return diopiNoImplement;
}
