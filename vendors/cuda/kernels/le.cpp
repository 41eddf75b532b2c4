// Scaffolded by `make new-vendor` from generated/vendor_stubs/le.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `le` family: Element-wise less-than-or-equal; the result is bool.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise less-than-or-equal; the result is bool.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiLe(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise less-than-or-equal; the result is bool.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in]
extern "C" diopiError_t diopiLeScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const diopiScalar_t* other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise less-than-or-equal; the result is bool.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiLeInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                   diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise less-than-or-equal; the result is bool.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in]
extern "C" diopiError_t diopiLeInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const diopiScalar_t* other) {
  (void)ctx;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
