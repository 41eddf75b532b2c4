// Scaffolded by `make new-vendor` from generated/vendor_stubs/remainder.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `remainder` family: Python-style modulus with broadcasting, the result
// has the sign of other. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Python-style modulus with broadcasting, the result has the sign of other.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   other [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiRemainderTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Python-style modulus with broadcasting, the result has the sign of other.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   other [in]
extern "C" diopiError_t diopiRemainderScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             diopiConstTensorHandle_t input,
                                             const diopiScalar_t* other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Python-style modulus with broadcasting, the result has the sign of other.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in]
//   other [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiRemainder(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       const diopiScalar_t* input, diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
