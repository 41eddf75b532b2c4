// Scaffolded by `make new-vendor` from generated/vendor_stubs/div.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `div` family: Element-wise true division with broadcasting; optional
// rounding ("trunc" or "floor"). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill
// the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise true division with broadcasting; optional rounding ("trunc" or "floor").
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   other [in] dtypes: float16, bfloat16, float32, float64
//   rounding_mode [in]
extern "C" diopiError_t diopiDiv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                 diopiRoundMode_t rounding_mode) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  (void)rounding_mode;
  return diopiNoImplement;
}

// Element-wise true division with broadcasting; optional rounding ("trunc" or "floor").
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   other [in] dtypes: float16, bfloat16, float32, float64
//   rounding_mode [in]
extern "C" diopiError_t diopiDivInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t other,
                                    diopiRoundMode_t rounding_mode) {
  (void)ctx;
  (void)input;
  (void)other;
  (void)rounding_mode;
  return diopiNoImplement;
}

// Element-wise true division with broadcasting; optional rounding ("trunc" or "floor").
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   other [in]
//   rounding_mode [in]
extern "C" diopiError_t diopiDivScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                       diopiRoundMode_t rounding_mode) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  (void)rounding_mode;
  return diopiNoImplement;
}

// Element-wise true division with broadcasting; optional rounding ("trunc" or "floor").
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   other [in]
//   rounding_mode [in]
extern "C" diopiError_t diopiDivInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* other,
                                          diopiRoundMode_t rounding_mode) {
  (void)ctx;
  (void)input;
  (void)other;
  (void)rounding_mode;
  return diopiNoImplement;
}
