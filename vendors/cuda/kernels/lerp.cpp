// Scaffolded by `make new-vendor` from generated/vendor_stubs/lerp.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `lerp` family: Linear interpolation, out = input + weight * (end -
// input), with broadcasting. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Linear interpolation, out = input + weight * (end - input), with broadcasting.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   end [in] dtypes: float16, bfloat16, float32, float64
//   weight [in]
extern "C" diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t end, const diopiScalar_t* weight) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)end;
  (void)weight;
  return diopiNoImplement;
}

// Linear interpolation, out = input + weight * (end - input), with broadcasting.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   end [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t end,
                                        diopiConstTensorHandle_t weight) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)end;
  (void)weight;
  return diopiNoImplement;
}
