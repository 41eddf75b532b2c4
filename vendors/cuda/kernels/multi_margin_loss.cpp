// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/multi_margin_loss.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `multi_margin_loss` family: Multi-class margin loss, sum over classes i
// != y of max(0, margin - x[y] + x[i])^p / C (p 1 or 2, optional class weights on x[y]'s terms).
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Multi-class margin loss, sum over classes i != y of max(0, margin - x[y] + x[i])^p / C (p 1 or 2,
// optional class weights on x[y]'s terms).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   target [in] dtypes: int64
//   p [in]
//   margin [in]
//   weight [in] dtypes: float32, float64 (may be null)
//   reduction [in]
extern "C" diopiError_t diopiMultiMarginLoss(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t target,
                                             const diopiScalar_t* p, const diopiScalar_t* margin,
                                             diopiConstTensorHandle_t weight,
                                             diopiReduction_t reduction) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)target;
  (void)p;
  (void)margin;
  (void)weight;
  (void)reduction;
  return diopiNoImplement;
}
