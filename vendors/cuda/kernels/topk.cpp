// Scaffolded by `make new-vendor` from generated/vendor_stubs/topk.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `topk` family: The k largest (or smallest) elements along dim and their
// indices, in sorted order when sorted is true (equal values keep the lower index first). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The k largest (or smallest) elements along dim and their indices, in sorted order when sorted is
// true (equal values keep the lower index first).
//   values [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   indices [out] dtypes: int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   k [in]
//   dim [in]
//   largest [in]
//   sorted [in]
extern "C" diopiError_t diopiTopk(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                                  diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                  int64_t k, int64_t dim, bool largest, bool sorted) {
  (void)ctx;
  (void)values;
  (void)indices;
  (void)input;
  (void)k;
  (void)dim;
  (void)largest;
  (void)sorted;
  return diopiNoImplement;
}
