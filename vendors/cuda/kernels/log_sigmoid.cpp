// Scaffolded by `make new-vendor` from generated/vendor_stubs/log_sigmoid.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `log_sigmoid` family: log(sigmoid(input)) computed stably as min(x, 0) -
// log1p(exp(-|x|)); buffer receives exp(-|x|) (what ATen's CPU backward reads). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// log(sigmoid(input)) computed stably as min(x, 0) - log1p(exp(-|x|)); buffer receives exp(-|x|)
// (what ATen's CPU backward reads).
//   out [out] dtypes: bfloat16, float32, float64
//   buffer [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiLogSigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiTensorHandle_t buffer,
                                        diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)buffer;
  (void)input;
  return diopiNoImplement;
}
