// Scaffolded by `make new-vendor` from generated/vendor_stubs/normal.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `normal` family: Fills inout with values drawn from the normal
// distribution N(mean, std^2) by the device generator. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Fills inout with values drawn from the normal distribution N(mean, std^2) by the device
// generator.
//   inout [inout] dtypes: float16, bfloat16, float32, float64
//   mean [in]
//   std [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                       double mean, double std, diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)inout;
  (void)mean;
  (void)std;
  (void)generator;
  return diopiNoImplement;
}

// Per-element means (a tensor broadcast to out), one std.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   mean [in] dtypes: float16, bfloat16, float32, float64
//   std [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiNormalTensorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                                diopiConstTensorHandle_t mean, double std,
                                                diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)mean;
  (void)std;
  (void)generator;
  return diopiNoImplement;
}

// One mean, per-element standard deviations (a tensor broadcast to out).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   mean [in]
//   std [in] dtypes: float16, bfloat16, float32, float64
//   generator [in] (may be null)
extern "C" diopiError_t diopiNormalScalarTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                                double mean, diopiConstTensorHandle_t std,
                                                diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)mean;
  (void)std;
  (void)generator;
  return diopiNoImplement;
}

// Per-element means and standard deviations (tensors broadcast to out).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   mean [in] dtypes: float16, bfloat16, float32, float64
//   std [in] dtypes: float16, bfloat16, float32, float64
//   generator [in] (may be null)
extern "C" diopiError_t diopiNormalTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t mean,
                                          diopiConstTensorHandle_t std,
                                          diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)mean;
  (void)std;
  (void)generator;
  return diopiNoImplement;
}
