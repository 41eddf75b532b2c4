// Scaffolded by `make new-vendor` from generated/vendor_stubs/max.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `max` family: Maximum along dim with the index of its first occurrence
// (NaN counts as the maximum), or over all elements. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Maximum along dim with the index of its first occurrence (NaN counts as the maximum), or over all
// elements.
//   max [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   max_indices [out] dtypes: int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in]
extern "C" diopiError_t diopiMax(diopiContextHandle_t ctx, diopiTensorHandle_t max,
                                 diopiTensorHandle_t max_indices, diopiConstTensorHandle_t input,
                                 int64_t dim) {
  (void)ctx;
  (void)max;
  (void)max_indices;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}

// Maximum along dim with the index of its first occurrence (NaN counts as the maximum), or over all
// elements.
//   max [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiMaxAll(diopiContextHandle_t ctx, diopiTensorHandle_t max,
                                    diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)max;
  (void)input;
  return diopiNoImplement;
}
