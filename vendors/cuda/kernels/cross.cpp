// Scaffolded by `make new-vendor` from generated/vendor_stubs/cross.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `cross` family: Cross product of 3-vectors along dim (size 3 in both
// inputs, of one rank and dtype), the other dims broadcast. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Cross product of 3-vectors along dim (size 3 in both inputs, of one rank and dtype), the other
// dims broadcast.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   other [in] dtypes: float32, float64
//   dim [in]
extern "C" diopiError_t diopiLinalgCross(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t other, int64_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  (void)dim;
  return diopiNoImplement;
}
