// Scaffolded by `make new-vendor` from generated/vendor_stubs/zero.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `zero` family: Sets every element of the tensor to zero.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Sets every element of the tensor to zero.
//   self [inout] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32,
//   float64
extern "C" diopiError_t diopiZeroInp(diopiContextHandle_t ctx, diopiTensorHandle_t self) {
  (void)ctx;
  (void)self;
  return diopiNoImplement;
}
