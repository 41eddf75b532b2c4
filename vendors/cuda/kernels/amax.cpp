// Scaffolded by `make new-vendor` from generated/vendor_stubs/amax.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `amax` family: Maximum over the given dimensions (all when dim is
// empty), NaN propagating; no indices. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Maximum over the given dimensions (all when dim is empty), NaN propagating; no indices.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   self [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in]
//   keepdim [in]
extern "C" diopiError_t diopiAmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t self, diopiSize_t dim, bool keepdim) {
  (void)ctx;
  (void)out;
  (void)self;
  (void)dim;
  (void)keepdim;
  return diopiNoImplement;
}
