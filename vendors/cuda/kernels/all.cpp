// Scaffolded by `make new-vendor` from generated/vendor_stubs/all.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `all` family: True when every element of input is nonzero (NaN counts as
// nonzero); dim null reduces every element. Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// True when every element of input is nonzero (NaN counts as nonzero); dim null reduces every
// element.
//   out [out] dtypes: bool
//   input [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   dim [in] (may be null)
extern "C" diopiError_t diopiAll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, const int64_t* dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
