// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/special_airy_ai.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `special_airy_ai` family: Element-wise Airy function Ai(x) (NaN at
// +-inf, as ATen). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise Airy function Ai(x) (NaN at +-inf, as ATen).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
extern "C" diopiError_t diopiSpecialAiryAi(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
