// Scaffolded by `make new-vendor` from generated/vendor_stubs/addcmul.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `addcmul` family: out = input + value * tensor1 * tensor2, with
// broadcasting. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = input + value * tensor1 * tensor2, with broadcasting.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   tensor1 [in] dtypes: float16, bfloat16, float32, float64
//   tensor2 [in] dtypes: float16, bfloat16, float32, float64
//   value [in]
extern "C" diopiError_t diopiAddcmul(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t tensor1,
                                     diopiConstTensorHandle_t tensor2, const diopiScalar_t* value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)tensor1;
  (void)tensor2;
  (void)value;
  return diopiNoImplement;
}
