// Scaffolded by `make new-vendor` from generated/vendor_stubs/kthvalue.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `kthvalue` family: The k-th smallest element along dim (NaN the largest
// value) and its index; among equal values the one ATen's quickselect (median-of-three Hoare
// selection) returns. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The k-th smallest element along dim (NaN the largest value) and its index; among equal values the
// one ATen's quickselect (median-of-three Hoare selection) returns.
//   values [out] dtypes: int32, int64, float32, float64
//   indices [out] dtypes: int64
//   input [in] dtypes: int32, int64, float32, float64
//   k [in]
//   dim [in]
extern "C" diopiError_t diopiKthvalue(diopiContextHandle_t ctx, diopiTensorHandle_t values,
                                      diopiTensorHandle_t indices, diopiConstTensorHandle_t input,
                                      int64_t k, int64_t dim) {
  (void)ctx;
  (void)values;
  (void)indices;
  (void)input;
  (void)k;
  (void)dim;
  return diopiNoImplement;
}
