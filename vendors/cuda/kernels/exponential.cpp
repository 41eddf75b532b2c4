// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/exponential.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `exponential` family: Fills inout with values drawn from the exponential
// distribution of rate lambd by the device generator. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Fills inout with values drawn from the exponential distribution of rate lambd by the device
// generator.
//   inout [inout] dtypes: float16, bfloat16, float32, float64
//   lambd [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiExponentialInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                            double lambd, diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)inout;
  (void)lambd;
  (void)generator;
  return diopiNoImplement;
}
