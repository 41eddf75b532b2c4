// Scaffolded by `make new-vendor` from generated/vendor_stubs/max_unpool2d.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `max_unpool2d` family: Inverse of 2-D max pooling, input's values
// written at the flat (oH * oW) positions indices give in each plane of a zero [.., oH, oW] output.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Inverse of 2-D max pooling, input's values written at the flat (oH * oW) positions indices give
// in each plane of a zero [.., oH, oW] output.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   indices [in] dtypes: int64
//   output_size [in]
extern "C" diopiError_t diopiMaxUnpool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input,
                                         diopiConstTensorHandle_t indices,
                                         diopiSize_t output_size) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)indices;
  (void)output_size;
  return diopiNoImplement;
}
