// Scaffolded by `make new-vendor` from generated/vendor_stubs/mish.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `mish` family: Self-regularized activation x * tanh(softplus(x)).
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Self-regularized activation x * tanh(softplus(x)).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
extern "C" diopiError_t diopiMish(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Self-regularized activation x * tanh(softplus(x)).
//   input [inout] dtypes: float32, float64
extern "C" diopiError_t diopiMishInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}
