// Scaffolded by `make new-vendor` from generated/vendor_stubs/tril.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `tril` family: Lower triangle of the last two dims (elements with column
// - row <= diagonal); the rest is zero. Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Lower triangle of the last two dims (elements with column - row <= diagonal); the rest is zero.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   diagonal [in]
extern "C" diopiError_t diopiTril(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, int64_t diagonal) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)diagonal;
  return diopiNoImplement;
}
