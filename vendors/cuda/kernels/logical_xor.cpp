// Scaffolded by `make new-vendor` from generated/vendor_stubs/logical_xor.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `logical_xor` family: Element-wise logical XOR with broadcasting
// (nonzero is true); the result is bool, or 1 / 0 in out's dtype. Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// Element-wise logical XOR with broadcasting (nonzero is true); the result is bool, or 1 / 0 in
// out's dtype.
//   out [out] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiLogicalXor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise logical XOR with broadcasting (nonzero is true); the result is bool, or 1 / 0 in
// out's dtype.
//   input [inout] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiLogicalXorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                           diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
