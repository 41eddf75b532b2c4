// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/log_normal.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `log_normal` family: Fills inout with exp(x), x drawn from the normal
// distribution N(mean, std^2) by the device generator. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Fills inout with exp(x), x drawn from the normal distribution N(mean, std^2) by the device
// generator.
//   inout [inout] dtypes: float16, bfloat16, float32, float64
//   mean [in]
//   std [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiLogNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                          double mean, double std,
                                          diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)inout;
  (void)mean;
  (void)std;
  (void)generator;
  return diopiNoImplement;
}
