// Scaffolded by `make new-vendor` from generated/vendor_stubs/triu.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `triu` family: Upper triangle of the last two dims (elements with column
// - row >= diagonal); the rest is zero. Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Upper triangle of the last two dims (elements with column - row >= diagonal); the rest is zero.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   diagonal [in]
extern "C" diopiError_t diopiTriu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, int64_t diagonal) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)diagonal;
  return diopiNoImplement;
}

// Upper triangle of the last two dims (elements with column - row >= diagonal); the rest is zero.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   diagonal [in]
extern "C" diopiError_t diopiTriuInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                     int64_t diagonal) {
  (void)ctx;
  (void)input;
  (void)diagonal;
  return diopiNoImplement;
}
