// Scaffolded by `make new-vendor` from generated/vendor_stubs/huber_loss.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `huber_loss` family: Huber loss, 0.5 (input - target)^2 where |input -
// target| < delta and delta (|input - target| - 0.5 delta) elsewhere, unreduced, summed or
// averaged. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Huber loss, 0.5 (input - target)^2 where |input - target| < delta and delta (|input - target| -
// 0.5 delta) elsewhere, unreduced, summed or averaged.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   target [in] dtypes: float16, bfloat16, float32, float64
//   reduction [in]
//   delta [in]
extern "C" diopiError_t diopiHuberLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t target, diopiReduction_t reduction,
                                       double delta) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)target;
  (void)reduction;
  (void)delta;
  return diopiNoImplement;
}
