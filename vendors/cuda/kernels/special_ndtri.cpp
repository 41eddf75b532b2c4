// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/special_ndtri.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `special_ndtri` family: Element-wise inverse of the standard normal
// cumulative distribution function (NaN outside [0, 1]). Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Element-wise inverse of the standard normal cumulative distribution function (NaN outside [0,
// 1]).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
extern "C" diopiError_t diopiSpecialNdtri(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
