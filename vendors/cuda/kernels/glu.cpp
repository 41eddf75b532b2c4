// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/glu.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `glu` family: Gated linear unit, a * sigmoid(b) where a and b are the
// halves of input along dim. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Gated linear unit, a * sigmoid(b) where a and b are the halves of input along dim.
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
//   dim [in]
extern "C" diopiError_t diopiGlu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, int64_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
