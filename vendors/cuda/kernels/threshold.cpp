// Scaffolded by `make new-vendor` from generated/vendor_stubs/threshold.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `threshold` family: Replaces elements not greater than threshold by
// value; its backward masks the gradient. Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Replaces elements not greater than threshold by value; its backward masks the gradient.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   threshold [in]
//   value [in]
extern "C" diopiError_t diopiThreshold(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input,
                                       const diopiScalar_t* threshold, const diopiScalar_t* value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)threshold;
  (void)value;
  return diopiNoImplement;
}

// Replaces elements not greater than threshold by value; its backward masks the gradient.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   threshold [in]
extern "C" diopiError_t diopiThresholdBackward(diopiContextHandle_t ctx,
                                               diopiTensorHandle_t grad_input,
                                               diopiConstTensorHandle_t grad_output,
                                               diopiConstTensorHandle_t input,
                                               const diopiScalar_t* threshold) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)threshold;
  return diopiNoImplement;
}
