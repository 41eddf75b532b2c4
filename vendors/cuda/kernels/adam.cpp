// Scaffolded by `make new-vendor` from generated/vendor_stubs/adam.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `adam` family: One Adam / AdamW update of a parameter tensor and its
// moment buffers in place, for a step count already incremented. Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// Adam with L2 weight decay (grad += weight_decay * param), torch.optim.Adam's update: exp_avg =
// beta1 * exp_avg + (1 - beta1) * grad, exp_avg_sq = beta2 * exp_avg_sq + (1 - beta2) * grad^2,
// param -= lr / (1 - beta1^step) * exp_avg / (sqrt(exp_avg_sq or its running max when amsgrad) /
// sqrt(1 - beta2^step) + eps).
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   grad [in] dtypes: float16, bfloat16, float32, float64
//   exp_avg [inout] dtypes: float16, bfloat16, float32, float64
//   exp_avg_sq [inout] dtypes: float16, bfloat16, float32, float64
//   max_exp_avg_sq [inout] dtypes: float16, bfloat16, float32, float64 (may be null)
//   lr [in]
//   beta1 [in]
//   beta2 [in]
//   eps [in]
//   weight_decay [in]
//   step [in]
//   amsgrad [in]
extern "C" diopiError_t diopiAdam(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                  diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                  diopiTensorHandle_t exp_avg_sq,
                                  diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1,
                                  float beta2, float eps, float weight_decay, int64_t step,
                                  bool amsgrad) {
  (void)ctx;
  (void)input;
  (void)grad;
  (void)exp_avg;
  (void)exp_avg_sq;
  (void)max_exp_avg_sq;
  (void)lr;
  (void)beta1;
  (void)beta2;
  (void)eps;
  (void)weight_decay;
  (void)step;
  (void)amsgrad;
  return diopiNoImplement;
}

// AdamW: decoupled weight decay (input *= 1 - lr * weight_decay) before diopiAdam's update without
// the L2 term, torch.optim.AdamW's update.
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   grad [in] dtypes: float16, bfloat16, float32, float64
//   exp_avg [inout] dtypes: float16, bfloat16, float32, float64
//   exp_avg_sq [inout] dtypes: float16, bfloat16, float32, float64
//   max_exp_avg_sq [inout] dtypes: float16, bfloat16, float32, float64 (may be null)
//   lr [in]
//   beta1 [in]
//   beta2 [in]
//   eps [in]
//   weight_decay [in]
//   step [in]
//   amsgrad [in]
extern "C" diopiError_t diopiAdamW(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                   diopiTensorHandle_t exp_avg_sq,
                                   diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1,
                                   float beta2, float eps, float weight_decay, int64_t step,
                                   bool amsgrad) {
  (void)ctx;
  (void)input;
  (void)grad;
  (void)exp_avg;
  (void)exp_avg_sq;
  (void)max_exp_avg_sq;
  (void)lr;
  (void)beta1;
  (void)beta2;
  (void)eps;
  (void)weight_decay;
  (void)step;
  (void)amsgrad;
  return diopiNoImplement;
}
