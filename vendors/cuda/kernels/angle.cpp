// Scaffolded by `make new-vendor` from generated/vendor_stubs/angle.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `angle` family: The argument of each element of a real tensor, 0 for
// non-negative values and pi for negative ones (NaN stays NaN). Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// The argument of each element of a real tensor, 0 for non-negative values and pi for negative ones
// (NaN stays NaN).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiAngle(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
