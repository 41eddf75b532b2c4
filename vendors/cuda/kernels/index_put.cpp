// Scaffolded by `make new-vendor` from generated/vendor_stubs/index_put.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `index_put` family: Writes values (broadcast to the indexed shape) into
// input at the positions advanced indexing by indices selects (as diopiIndex reads them), adding
// instead of writing when accumulate is true (repeated positions then add up). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Writes values (broadcast to the indexed shape) into input at the positions advanced indexing by
// indices selects (as diopiIndex reads them), adding instead of writing when accumulate is true
// (repeated positions then add up).
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   values [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   indices [in] dtypes: int64, bool (may be null)
//   accumulate [in]
extern "C" diopiError_t diopiIndexPut(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t values,
                                      diopiConstTensorHandle_t* indices, int64_t indices_counts,
                                      bool accumulate) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)values;
  (void)indices;
  (void)indices_counts;
  (void)accumulate;
  return diopiNoImplement;
}

// Writes values (broadcast to the indexed shape) into input at the positions advanced indexing by
// indices selects (as diopiIndex reads them), adding instead of writing when accumulate is true
// (repeated positions then add up).
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   values [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   indices [in] dtypes: int64, bool (may be null)
//   accumulate [in]
extern "C" diopiError_t diopiIndexPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         diopiConstTensorHandle_t values,
                                         diopiConstTensorHandle_t* indices, int64_t indices_counts,
                                         bool accumulate) {
  (void)ctx;
  (void)input;
  (void)values;
  (void)indices;
  (void)indices_counts;
  (void)accumulate;
  return diopiNoImplement;
}
