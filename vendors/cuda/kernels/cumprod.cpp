// Scaffolded by `make new-vendor` from generated/vendor_stubs/cumprod.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `cumprod` family: Cumulative product along dim, accumulated in double
// (floating) or int64 (integral); the result dtype is out's. Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// Cumulative product along dim, accumulated in double (floating) or int64 (integral); the result
// dtype is out's.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in]
extern "C" diopiError_t diopiCumprod(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input, int64_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
