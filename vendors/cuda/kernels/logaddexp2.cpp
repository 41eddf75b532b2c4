// Scaffolded by `make new-vendor` from generated/vendor_stubs/logaddexp2.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `logaddexp2` family: log2(2 ** input + 2 ** other) without overflow,
// with broadcasting. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// log2(2 ** input + 2 ** other) without overflow, with broadcasting.
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
//   other [in] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiLogaddexp2(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
