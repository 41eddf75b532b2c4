// Scaffolded by `make new-vendor` from generated/vendor_stubs/randperm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `randperm` family: A random permutation of 0 .. n-1 (Fisher-Yates on the
// device generator). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// A random permutation of 0 .. n-1 (Fisher-Yates on the device generator).
//   out [out] dtypes: int64, int32
//   n [in]
//   generator [in] (may be null)
extern "C" diopiError_t diopiRandperm(diopiContextHandle_t ctx, diopiTensorHandle_t out, int64_t n,
                                      diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)out;
  (void)n;
  (void)generator;
  return diopiNoImplement;
}
