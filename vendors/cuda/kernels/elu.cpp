// Scaffolded by `make new-vendor` from generated/vendor_stubs/elu.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `elu` family: Exponential linear unit, scale * x for x > 0 and scale *
// alpha * (exp(input_scale * x) - 1) otherwise, and its backward. Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// Exponential linear unit, scale * x for x > 0 and scale * alpha * (exp(input_scale * x) - 1)
// otherwise, and its backward.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   alpha [in]
//   scale [in]
//   input_scale [in]
extern "C" diopiError_t diopiElu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, const diopiScalar_t* alpha,
                                 const diopiScalar_t* scale, const diopiScalar_t* input_scale) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)alpha;
  (void)scale;
  (void)input_scale;
  return diopiNoImplement;
}

// Exponential linear unit, scale * x for x > 0 and scale * alpha * (exp(input_scale * x) - 1)
// otherwise, and its backward.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   alpha [in]
//   scale [in]
//   input_scale [in]
//   input_is_result [in]
extern "C" diopiError_t diopiEluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                         diopiConstTensorHandle_t grad_output,
                                         diopiConstTensorHandle_t input, const diopiScalar_t* alpha,
                                         const diopiScalar_t* scale,
                                         const diopiScalar_t* input_scale, bool input_is_result) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)alpha;
  (void)scale;
  (void)input_scale;
  (void)input_is_result;
  return diopiNoImplement;
}
