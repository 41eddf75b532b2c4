// Scaffolded by `make new-vendor` from generated/vendor_stubs/min.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `min` family: Minimum along dim with the index of its first occurrence
// (NaN counts as the minimum), or over all elements. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Minimum along dim with the index of its first occurrence (NaN counts as the minimum), or over all
// elements.
//   min [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min_indices [out] dtypes: int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in]
extern "C" diopiError_t diopiMin(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                                 diopiTensorHandle_t min_indices, diopiConstTensorHandle_t input,
                                 int64_t dim) {
  (void)ctx;
  (void)min;
  (void)min_indices;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}

// Minimum along dim with the index of its first occurrence (NaN counts as the minimum), or over all
// elements.
//   min [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiMinAll(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                                    diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)min;
  (void)input;
  return diopiNoImplement;
}
