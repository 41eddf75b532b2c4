// Scaffolded by `make new-vendor` from generated/vendor_stubs/hardtanh.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `hardtanh` family: Clamps input into [min_val, max_val] (ReLU6 is
// hardtanh(0, 6)); the gradient passes strictly inside. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Clamps input into [min_val, max_val] (ReLU6 is hardtanh(0, 6)); the gradient passes strictly
// inside.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   min_val [in]
//   max_val [in]
extern "C" diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                                      const diopiScalar_t* max_val) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)min_val;
  (void)max_val;
  return diopiNoImplement;
}

// Clamps input into [min_val, max_val] (ReLU6 is hardtanh(0, 6)); the gradient passes strictly
// inside.
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   min_val [in]
//   max_val [in]
extern "C" diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* min_val,
                                         const diopiScalar_t* max_val) {
  (void)ctx;
  (void)input;
  (void)min_val;
  (void)max_val;
  return diopiNoImplement;
}

// Clamps input into [min_val, max_val] (ReLU6 is hardtanh(0, 6)); the gradient passes strictly
// inside.
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   min_val [in]
//   max_val [in]
extern "C" diopiError_t diopiHardtanhBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)min_val;
  (void)max_val;
  return diopiNoImplement;
}
