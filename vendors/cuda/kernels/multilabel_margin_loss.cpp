// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/multilabel_margin_loss.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `multilabel_margin_loss` family: Multi-label margin loss, sum over
// targets j (up to the first -1) and non-targets i of max(0, 1 - x[j] + x[i]) / C, with the target
// mask. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Multi-label margin loss, sum over targets j (up to the first -1) and non-targets i of max(0, 1 -
// x[j] + x[i]) / C, with the target mask.
//   out [out] dtypes: float32, float64
//   is_target [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   target [in] dtypes: int64
//   reduction [in]
extern "C" diopiError_t diopiMultilabelMarginLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                                  diopiTensorHandle_t is_target,
                                                  diopiConstTensorHandle_t input,
                                                  diopiConstTensorHandle_t target,
                                                  diopiReduction_t reduction) {
  (void)ctx;
  (void)out;
  (void)is_target;
  (void)input;
  (void)target;
  (void)reduction;
  return diopiNoImplement;
}
