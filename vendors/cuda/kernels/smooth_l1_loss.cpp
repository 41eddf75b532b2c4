// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/smooth_l1_loss.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `smooth_l1_loss` family: Smooth L1 loss, 0.5 (input - target)^2 / beta
// where |input - target| < beta and |input - target| - 0.5 beta elsewhere, unreduced, summed or
// averaged, and its backward. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Smooth L1 loss, 0.5 (input - target)^2 / beta where |input - target| < beta and |input - target|
// - 0.5 beta elsewhere, unreduced, summed or averaged, and its backward.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   target [in] dtypes: float16, bfloat16, float32, float64
//   reduction [in]
//   beta [in]
extern "C" diopiError_t diopiSmoothL1Loss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t target,
                                          diopiReduction_t reduction, double beta) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)target;
  (void)reduction;
  (void)beta;
  return diopiNoImplement;
}

// Smooth L1 loss, 0.5 (input - target)^2 / beta where |input - target| < beta and |input - target|
// - 0.5 beta elsewhere, unreduced, summed or averaged, and its backward.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   target [in] dtypes: float16, bfloat16, float32, float64
//   reduction [in]
//   beta [in]
extern "C" diopiError_t diopiSmoothL1LossBackward(diopiContextHandle_t ctx,
                                                  diopiTensorHandle_t grad_input,
                                                  diopiConstTensorHandle_t grad_output,
                                                  diopiConstTensorHandle_t input,
                                                  diopiConstTensorHandle_t target,
                                                  diopiReduction_t reduction, double beta) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)target;
  (void)reduction;
  (void)beta;
  return diopiNoImplement;
}
