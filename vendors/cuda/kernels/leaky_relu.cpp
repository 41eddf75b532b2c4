// Scaffolded by `make new-vendor` from generated/vendor_stubs/leaky_relu.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `leaky_relu` family: Leaky rectified linear unit, x for x > 0 and
// negative_slope * x otherwise, and its backward. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Leaky rectified linear unit, x for x > 0 and negative_slope * x otherwise, and its backward.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   negative_slope [in]
extern "C" diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input,
                                       const diopiScalar_t* negative_slope) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)negative_slope;
  return diopiNoImplement;
}

// Leaky rectified linear unit, x for x > 0 and negative_slope * x otherwise, and its backward.
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   negative_slope [in]
extern "C" diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* negative_slope) {
  (void)ctx;
  (void)input;
  (void)negative_slope;
  return diopiNoImplement;
}

// Leaky rectified linear unit, x for x > 0 and negative_slope * x otherwise, and its backward.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   negative_slope [in]
//   input_is_result [in]
extern "C" diopiError_t diopiLeakyReluBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope, bool input_is_result) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)negative_slope;
  (void)input_is_result;
  return diopiNoImplement;
}
