// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/binary_cross_entropy.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `binary_cross_entropy` family: Binary cross entropy -w (t log(x) + (1 -
// t) log(1 - x)) of probabilities x, each log clamped at -100, unreduced, summed or averaged. Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Binary cross entropy -w (t log(x) + (1 - t) log(1 - x)) of probabilities x, each log clamped at
// -100, unreduced, summed or averaged.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   target [in] dtypes: float32, float64
//   weight [in] dtypes: float32, float64 (may be null)
//   reduction [in]
extern "C" diopiError_t diopiBCELoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t target,
                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)target;
  (void)weight;
  (void)reduction;
  return diopiNoImplement;
}
