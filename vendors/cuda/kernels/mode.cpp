// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/mode.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `mode` family: The most frequent value along dim (the smallest of
// equally frequent ones) with an index of it, the one ATen's CPU kernel picks (the last of its run
// after std::sort of the line by value). Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The most frequent value along dim (the smallest of equally frequent ones) with an index of it,
// the one ATen's CPU kernel picks (the last of its run after std::sort of the line by value).
//   values [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32,
//   float64 indices [out] dtypes: int64 input [in] dtypes: bool, int8, uint8, int16, int32, int64,
//   float16, bfloat16, float32, float64 dim [in]
extern "C" diopiError_t diopiMode(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                                  diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                  int64_t dim) {
  (void)ctx;
  (void)values;
  (void)indices;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
