// Scaffolded by `make new-vendor` from generated/vendor_stubs/convolution.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `convolution` family: 2-D convolution (cross-correlation) with stride,
// zero padding, dilation and groups, and its gradients. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// 2-D convolution (cross-correlation) with stride, zero padding, dilation and groups, and its
// gradients.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64
//   bias [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   stride [in]
//   padding [in]
//   dilation [in]
//   groups [in]
extern "C" diopiError_t diopiConvolution2d(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t weight,
                                           diopiConstTensorHandle_t bias, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation,
                                           int64_t groups) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)weight;
  (void)bias;
  (void)stride;
  (void)padding;
  (void)dilation;
  (void)groups;
  return diopiNoImplement;
}

// Gradients of the 2-D convolution; grad_input and grad_weight may be NULL, grad_bias is computed
// when it and bias_sizes are given.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_weight [out] dtypes: float16, bfloat16, float32, float64
//   grad_bias [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64
//   bias_sizes [in] (may be null)
//   stride [in]
//   padding [in]
//   dilation [in]
//   groups [in]
extern "C" diopiError_t diopiConvolution2dBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
  (void)ctx;
  (void)grad_input;
  (void)grad_weight;
  (void)grad_bias;
  (void)grad_output;
  (void)input;
  (void)weight;
  (void)bias_sizes;
  (void)stride;
  (void)padding;
  (void)dilation;
  (void)groups;
  return diopiNoImplement;
}
