// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/max_pool3d.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `max_pool3d` family: 3-D max pooling with the flat (D * H * W) index of
// each window's maximum, and its backward. Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// 3-D max pooling with the flat (D * H * W) index of each window's maximum, and its backward.
//   out [out] dtypes: float32, float64
//   indices [out] dtypes: int64
//   input [in] dtypes: float32, float64
//   kernel_size [in]
//   stride [in]
//   padding [in]
//   dilation [in]
//   ceil_mode [in]
extern "C" diopiError_t diopiMaxPool3dWithIndices(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                                  diopiTensorHandle_t indices,
                                                  diopiConstTensorHandle_t input,
                                                  diopiSize_t kernel_size, diopiSize_t stride,
                                                  diopiSize_t padding, diopiSize_t dilation,
                                                  bool ceil_mode) {
  (void)ctx;
  (void)out;
  (void)indices;
  (void)input;
  (void)kernel_size;
  (void)stride;
  (void)padding;
  (void)dilation;
  (void)ceil_mode;
  return diopiNoImplement;
}

// 3-D max pooling with the flat (D * H * W) index of each window's maximum, and its backward.
//   grad_input [out] dtypes: float32, float64
//   grad_output [in] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   kernel_size [in]
//   stride [in]
//   padding [in]
//   dilation [in]
//   ceil_mode [in]
//   indices [in] dtypes: int64
extern "C" diopiError_t diopiMaxPool3dBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride,
    diopiSize_t padding, diopiSize_t dilation, bool ceil_mode, diopiConstTensorHandle_t indices) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)kernel_size;
  (void)stride;
  (void)padding;
  (void)dilation;
  (void)ceil_mode;
  (void)indices;
  return diopiNoImplement;
}
