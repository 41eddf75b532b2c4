// Scaffolded by `make new-vendor` from generated/vendor_stubs/bmm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `bmm` family: Batched matrix product of two 3-D tensors.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Batched matrix product of two 3-D tensors.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   mat2 [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiBmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat2) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mat2;
  return diopiNoImplement;
}
