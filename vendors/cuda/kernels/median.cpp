// Scaffolded by `make new-vendor` from generated/vendor_stubs/median.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `median` family: The lower median along dim with its index (the first
// NaN if any, else the lowest index among equal values), or of all elements (NaN if any). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The lower median along dim with its index (the first NaN if any, else the lowest index among
// equal values), or of all elements (NaN if any).
//   values [out] dtypes: int32, int64, float32, float64
//   indices [out] dtypes: int64
//   input [in] dtypes: int32, int64, float32, float64
//   dim [in]
extern "C" diopiError_t diopiMedian(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                                    diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                    int64_t dim) {
  (void)ctx;
  (void)values;
  (void)indices;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}

// The lower median along dim with its index (the first NaN if any, else the lowest index among
// equal values), or of all elements (NaN if any).
//   out [out] dtypes: int32, int64, float32, float64
//   input [in] dtypes: int32, int64, float32, float64
extern "C" diopiError_t diopiMedianAll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
