// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/adaptive_max_pool2d.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `adaptive_max_pool2d` family: 2-D adaptive max pooling to output_size
// (windows as ATen splits them) with the flat (H * W) index of each maximum, and its backward. Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// 2-D adaptive max pooling to output_size (windows as ATen splits them) with the flat (H * W) index
// of each maximum, and its backward.
//   out [out] dtypes: bfloat16, float32, float64
//   indices [out] dtypes: int64
//   input [in] dtypes: bfloat16, float32, float64
//   output_size [in]
extern "C" diopiError_t diopiAdaptiveMaxPool2dWithIndices(diopiContextHandle_t ctx,
                                                          diopiTensorHandle_t out,
                                                          diopiTensorHandle_t indices,
                                                          diopiConstTensorHandle_t input,
                                                          diopiSize_t output_size) {
  (void)ctx;
  (void)out;
  (void)indices;
  (void)input;
  (void)output_size;
  return diopiNoImplement;
}

// 2-D adaptive max pooling to output_size (windows as ATen splits them) with the flat (H * W) index
// of each maximum, and its backward.
//   grad_input [out] dtypes: bfloat16, float32, float64
//   grad_output [in] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
//   indices [in] dtypes: int64
extern "C" diopiError_t diopiAdaptiveMaxPool2dBackward(diopiContextHandle_t ctx,
                                                       diopiTensorHandle_t grad_input,
                                                       diopiConstTensorHandle_t grad_output,
                                                       diopiConstTensorHandle_t input,
                                                       diopiConstTensorHandle_t indices) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)indices;
  return diopiNoImplement;
}
