// Scaffolded by `make new-vendor` from generated/vendor_stubs/softplus.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `softplus` family: Softplus, log(1 + exp(beta * x)) / beta, linear (x)
// where beta * x > threshold, and its backward. Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// Softplus, log(1 + exp(beta * x)) / beta, linear (x) where beta * x > threshold, and its backward.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   beta [in]
//   threshold [in]
extern "C" diopiError_t diopiSoftplus(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* beta,
                                      const diopiScalar_t* threshold) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)beta;
  (void)threshold;
  return diopiNoImplement;
}

// Softplus, log(1 + exp(beta * x)) / beta, linear (x) where beta * x > threshold, and its backward.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   beta [in]
//   threshold [in]
extern "C" diopiError_t diopiSoftplusBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, const diopiScalar_t* beta, const diopiScalar_t* threshold) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)beta;
  (void)threshold;
  return diopiNoImplement;
}
