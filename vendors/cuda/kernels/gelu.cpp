// Scaffolded by `make new-vendor` from generated/vendor_stubs/gelu.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `gelu` family: Gaussian error linear unit, exact ("none") or tanh
// approximation ("tanh"). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Gaussian error linear unit, exact ("none") or tanh approximation ("tanh").
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   approximate [in]
extern "C" diopiError_t diopiGelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, const char* approximate) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)approximate;
  return diopiNoImplement;
}

// Gaussian error linear unit, exact ("none") or tanh approximation ("tanh").
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   approximate [in]
extern "C" diopiError_t diopiGeluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                          diopiConstTensorHandle_t grad_output,
                                          diopiConstTensorHandle_t input, const char* approximate) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)approximate;
  return diopiNoImplement;
}
