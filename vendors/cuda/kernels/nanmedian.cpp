// Scaffolded by `make new-vendor` from generated/vendor_stubs/nanmedian.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `nanmedian` family: The lower median of the non-NaN values along dim
// with its index (the lowest among equal values; NaN when every value is), or of all elements. Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The lower median of the non-NaN values along dim with its index (the lowest among equal values;
// NaN when every value is), or of all elements.
//   values [out] dtypes: int32, int64, float32, float64
//   indices [out] dtypes: int64
//   input [in] dtypes: int32, int64, float32, float64
//   dim [in]
extern "C" diopiError_t diopiNanmedian(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                                       diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                       int64_t dim) {
  (void)ctx;
  (void)values;
  (void)indices;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}

// The lower median of the non-NaN values along dim with its index (the lowest among equal values;
// NaN when every value is), or of all elements.
//   out [out] dtypes: int32, int64, float32, float64
//   input [in] dtypes: int32, int64, float32, float64
extern "C" diopiError_t diopiNanmedianAll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
