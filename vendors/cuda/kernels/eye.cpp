// Scaffolded by `make new-vendor` from generated/vendor_stubs/eye.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `eye` family: Fills out ([n, m]) with ones on the main diagonal and
// zeros elsewhere. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills out ([n, m]) with ones on the main diagonal and zeros elsewhere.
//   out [out] dtypes: bool, uint8, int8, int16, int32, int64, float16, bfloat16, float32, float64
//   n [in]
//   m [in]
extern "C" diopiError_t diopiEye(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n,
                                 int64_t m) {
  (void)ctx;
  (void)out;
  (void)n;
  (void)m;
  return diopiNoImplement;
}
