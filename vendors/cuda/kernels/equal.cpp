// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/equal.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `equal` family: True if input and other have the same sizes and equal
// elements (compared in their promoted dtype; NaN equals nothing), a host bool written before the
// call returns. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// True if input and other have the same sizes and equal elements (compared in their promoted dtype;
// NaN equals nothing), a host bool written before the call returns.
//   out [out]
//   input [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   other [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiEqual(diopiContextHandle_t ctx, bool* out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
