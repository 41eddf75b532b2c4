// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/im2col.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `im2col` family: Extracts the sliding kernel_size blocks of a [N, C, H,
// W] input as columns [N, C * kH * kW, blocks] (unfold). Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Extracts the sliding kernel_size blocks of a [N, C, H, W] input as columns [N, C * kH * kW,
// blocks] (unfold).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   kernel_size [in]
//   dilation [in]
//   padding [in]
//   stride [in]
extern "C" diopiError_t diopiIm2Col(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                    diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)kernel_size;
  (void)dilation;
  (void)padding;
  (void)stride;
  return diopiNoImplement;
}
