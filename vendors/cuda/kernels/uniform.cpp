// Scaffolded by `make new-vendor` from generated/vendor_stubs/uniform.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `uniform` family: Fills inout with values drawn uniformly from [from,
// to) by the device generator. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill
// the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills inout with values drawn uniformly from [from, to) by the device generator.
//   inout [inout] dtypes: float16, bfloat16, float32, float64
//   from [in]
//   to [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                        double from, double to, diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)inout;
  (void)from;
  (void)to;
  (void)generator;
  return diopiNoImplement;
}
