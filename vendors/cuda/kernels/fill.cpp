// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/fill.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `fill` family: Sets every element of input to value.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Sets every element of input to value.
//   input [inout] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32,
//   float64 value [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32,
//   float64
extern "C" diopiError_t diopiFillTensor(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                        diopiConstTensorHandle_t value) {
  (void)ctx;
  (void)input;
  (void)value;
  return diopiNoImplement;
}
