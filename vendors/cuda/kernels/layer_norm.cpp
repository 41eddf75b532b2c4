// Scaffolded by `make new-vendor` from generated/vendor_stubs/layer_norm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `layer_norm` family: Layer normalization over the trailing
// normalized_shape dims, saving each row's mean and 1/std for the backward. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Layer normalization over the trailing normalized_shape dims, saving each row's mean and 1/std for
// the backward.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   save_mean [out] dtypes: float16, bfloat16, float32, float64
//   save_invstd [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   bias [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   normalized_shape [in]
//   eps [in]
extern "C" diopiError_t diopiLayerNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiTensorHandle_t save_mean,
                                       diopiTensorHandle_t save_invstd,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t weight,
                                       diopiConstTensorHandle_t bias, diopiSize_t normalized_shape,
                                       double eps) {
  (void)ctx;
  (void)out;
  (void)save_mean;
  (void)save_invstd;
  (void)input;
  (void)weight;
  (void)bias;
  (void)normalized_shape;
  (void)eps;
  return diopiNoImplement;
}

// Gradients of layer_norm; each of grad_input, grad_weight, grad_bias may be NULL (not wanted).
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_weight [out] dtypes: float16, bfloat16, float32, float64
//   grad_bias [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   bias [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   mean [in] dtypes: float16, bfloat16, float32, float64
//   rstd [in] dtypes: float16, bfloat16, float32, float64
//   normalized_shape [in]
extern "C" diopiError_t diopiLayerNormBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
    diopiConstTensorHandle_t mean, diopiConstTensorHandle_t rstd, diopiSize_t normalized_shape) {
  (void)ctx;
  (void)grad_input;
  (void)grad_weight;
  (void)grad_bias;
  (void)grad_output;
  (void)input;
  (void)weight;
  (void)bias;
  (void)mean;
  (void)rstd;
  (void)normalized_shape;
  return diopiNoImplement;
}
