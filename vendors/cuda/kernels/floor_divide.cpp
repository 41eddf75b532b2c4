// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/floor_divide.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `floor_divide` family: Element-wise division rounded down with
// broadcasting (div with rounding_mode "floor", which torch 1.13 and 2.x floor_divide both are); an
// integer division by zero is an error. Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise division rounded down with broadcasting (div with rounding_mode "floor", which
// torch 1.13 and 2.x floor_divide both are); an integer division by zero is an error.
//   out [out] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   other [in] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiFloorDivide(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
