// Scaffolded by `make new-vendor` from generated/vendor_stubs/softshrink.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `softshrink` family: x - lambd where x > lambd, x + lambd where x <
// -lambd, 0 elsewhere. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// x - lambd where x > lambd, x + lambd where x < -lambd, 0 elsewhere.
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
//   lambd [in]
extern "C" diopiError_t diopiSoftshrink(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        const diopiScalar_t* lambd) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)lambd;
  return diopiNoImplement;
}
