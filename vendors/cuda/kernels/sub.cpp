// Scaffolded by `make new-vendor` from generated/vendor_stubs/sub.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `sub` family: Element-wise difference with broadcasting, out = input -
// alpha * other. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise difference with broadcasting, out = input - alpha * other.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   alpha [in]
extern "C" diopiError_t diopiSub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                 const diopiScalar_t* alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  (void)alpha;
  return diopiNoImplement;
}

// Element-wise difference with broadcasting, out = input - alpha * other.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   alpha [in]
extern "C" diopiError_t diopiSubInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t other, const diopiScalar_t* alpha) {
  (void)ctx;
  (void)input;
  (void)other;
  (void)alpha;
  return diopiNoImplement;
}

// Element-wise difference with broadcasting, out = input - alpha * other.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in]
//   alpha [in]
extern "C" diopiError_t diopiSubScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, const diopiScalar_t* other,
                                       const diopiScalar_t* alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  (void)alpha;
  return diopiNoImplement;
}

// Element-wise difference with broadcasting, out = input - alpha * other.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in]
//   alpha [in]
extern "C" diopiError_t diopiSubInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          const diopiScalar_t* other, const diopiScalar_t* alpha) {
  (void)ctx;
  (void)input;
  (void)other;
  (void)alpha;
  return diopiNoImplement;
}
