// Scaffolded by `make new-vendor` from generated/vendor_stubs/diag.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `diag` family: A 1-D input becomes a square matrix with it on diagonal
// `diagonal` (0 main, > 0 above, < 0 below) and zeros elsewhere; a 2-D input gives that diagonal as
// a vector. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// A 1-D input becomes a square matrix with it on diagonal `diagonal` (0 main, > 0 above, < 0 below)
// and zeros elsewhere; a 2-D input gives that diagonal as a vector.
//   out [out] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   diagonal [in]
extern "C" diopiError_t diopiDiag(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, int64_t diagonal) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)diagonal;
  return diopiNoImplement;
}
