// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/count_nonzero.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `count_nonzero` family: The number of nonzero elements (NaN counts) over
// the given dims (all when dim is empty), as int64. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// The number of nonzero elements (NaN counts) over the given dims (all when dim is empty), as
// int64.
//   out [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
extern "C" diopiError_t diopiCountNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input, diopiSize_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
