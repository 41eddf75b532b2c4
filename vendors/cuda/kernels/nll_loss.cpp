// Scaffolded by `make new-vendor` from generated/vendor_stubs/nll_loss.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `nll_loss` family: Negative log-likelihood loss over class scores [N, C]
// (or [C]) and class indices. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Negative log-likelihood loss over class scores [N, C] (or [C]) and class indices.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   target [in] dtypes: int64
//   weight [in] dtypes: float32, float64 (may be null)
//   reduction [in]
//   ignore_index [in]
extern "C" diopiError_t diopiNLLLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t target,
                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                     int64_t ignore_index) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)target;
  (void)weight;
  (void)reduction;
  (void)ignore_index;
  return diopiNoImplement;
}

// Negative log-likelihood loss over class scores [N, C] (or [C]) and class indices.
//   grad_input [out] dtypes: float32, float64
//   grad_output [in] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   target [in] dtypes: int64
//   weight [in] dtypes: float32, float64 (may be null)
//   reduction [in]
//   ignore_index [in]
extern "C" diopiError_t diopiNLLLossBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t target,
    diopiConstTensorHandle_t weight, diopiReduction_t reduction, int64_t ignore_index) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)target;
  (void)weight;
  (void)reduction;
  (void)ignore_index;
  return diopiNoImplement;
}
