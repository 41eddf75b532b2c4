// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/avg_pool3d.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `avg_pool3d` family: 3-D average pooling (padding counted or not,
// optional divisor), and its backward. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// 3-D average pooling (padding counted or not, optional divisor), and its backward.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   kernel_size [in]
//   stride [in]
//   padding [in]
//   ceil_mode [in]
//   count_include_pad [in]
//   divisor_override [in] (may be null)
extern "C" diopiError_t diopiAvgPool3d(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, diopiSize_t kernel_size,
                                       diopiSize_t stride, diopiSize_t padding, bool ceil_mode,
                                       bool count_include_pad, const int64_t* divisor_override) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)kernel_size;
  (void)stride;
  (void)padding;
  (void)ceil_mode;
  (void)count_include_pad;
  (void)divisor_override;
  return diopiNoImplement;
}

// 3-D average pooling (padding counted or not, optional divisor), and its backward.
//   grad_input [out] dtypes: float32, float64
//   grad_output [in] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   kernel_size [in]
//   stride [in]
//   padding [in]
//   ceil_mode [in]
//   count_include_pad [in]
//   divisor_override [in] (may be null)
extern "C" diopiError_t diopiAvgPool3dBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiSize_t kernel_size, diopiSize_t stride,
    diopiSize_t padding, bool ceil_mode, bool count_include_pad, const int64_t* divisor_override) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)kernel_size;
  (void)stride;
  (void)padding;
  (void)ceil_mode;
  (void)count_include_pad;
  (void)divisor_override;
  return diopiNoImplement;
}
