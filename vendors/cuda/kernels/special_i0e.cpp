// Scaffolded by `make new-vendor` from generated/vendor_stubs/special_i0e.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `special_i0e` family: Element-wise exp(-|x|) * I0(x), the exponentially
// scaled modified Bessel function I0. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise exp(-|x|) * I0(x), the exponentially scaled modified Bessel function I0.
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiSpecialI0e(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
