// Scaffolded by `make new-vendor` from generated/vendor_stubs/signbit.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `signbit` family: True where the sign bit of input is set (-0.0 and
// negative NaN included). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// True where the sign bit of input is set (-0.0 and negative NaN included).
//   out [out] dtypes: bool
//   input [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiSignbit(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
