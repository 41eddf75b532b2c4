// Scaffolded by `make new-vendor` from generated/vendor_stubs/sort.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `sort` family: Sorts along dim stably (equal elements keep their order,
// NaN sorts as the largest), with each element's source index; a non-stable request is served
// stably. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Sorts along dim stably (equal elements keep their order, NaN sorts as the largest), with each
// element's source index; a non-stable request is served stably.
//   values [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   indices [out] dtypes: int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in]
//   descending [in]
//   pStable [in] (may be null)
extern "C" diopiError_t diopiSort(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                                  diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                  int64_t dim, bool descending, const bool* pStable) {
  (void)ctx;
  (void)values;
  (void)indices;
  (void)input;
  (void)dim;
  (void)descending;
  (void)pStable;
  return diopiNoImplement;
}
