// Scaffolded by `make new-vendor` from generated/vendor_stubs/flip.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `flip` family: Reverses the order of the elements along each of dims.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Reverses the order of the elements along each of dims.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dims [in]
extern "C" diopiError_t diopiFlip(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiSize_t dims) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dims;
  return diopiNoImplement;
}
