// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/geometric.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `geometric` family: Fills inout with the number of Bernoulli(p) trials
// up to the first success (1, 2, ...) drawn by the device generator. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills inout with the number of Bernoulli(p) trials up to the first success (1, 2, ...) drawn by
// the device generator.
//   inout [inout] dtypes: float16, bfloat16, float32, float64
//   p [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiGeometricInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                          double p, diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)inout;
  (void)p;
  (void)generator;
  return diopiNoImplement;
}
