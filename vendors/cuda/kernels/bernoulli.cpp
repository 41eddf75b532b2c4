// Scaffolded by `make new-vendor` from generated/vendor_stubs/bernoulli.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `bernoulli` family: Draws 0 or 1 per element by the device generator, 1
// with probability p (a scalar, or the input's element). Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Draws 0 or 1 per element by the device generator, 1 with probability p (a scalar, or the input's
// element).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   generator [in] (may be null)
extern "C" diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input,
                                       diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)generator;
  return diopiNoImplement;
}

// Draws 0 or 1 per element by the device generator, 1 with probability p (a scalar, or the input's
// element).
//   out [inout] dtypes: float16, bfloat16, float32, float64
//   p [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             double p, diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)p;
  (void)generator;
  return diopiNoImplement;
}
