// Scaffolded by `make new-vendor` from generated/vendor_stubs/logit.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `logit` family: Element-wise log(p / (1 - p)); with eps (if not
// negative), p is first clamped to [eps, 1 - eps]. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Element-wise log(p / (1 - p)); with eps (if not negative), p is first clamped to [eps, 1 - eps].
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
//   eps [in] (may be null)
extern "C" diopiError_t diopiLogit(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, const double* eps) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)eps;
  return diopiNoImplement;
}

// Element-wise log(p / (1 - p)); with eps (if not negative), p is first clamped to [eps, 1 - eps].
//   input [inout] dtypes: bfloat16, float32, float64
//   eps [in] (may be null)
extern "C" diopiError_t diopiLogitInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                      const double* eps) {
  (void)ctx;
  (void)input;
  (void)eps;
  return diopiNoImplement;
}
