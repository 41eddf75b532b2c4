// Scaffolded by `make new-vendor` from generated/vendor_stubs/bitwise_xor.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `bitwise_xor` family: Element-wise bitwise XOR of integral tensors
// (logical XOR for bool), with broadcasting. Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// Element-wise bitwise XOR of integral tensors (logical XOR for bool), with broadcasting.
//   out [out] dtypes: bool, int32, int64
//   input [in] dtypes: bool, int32, int64
//   other [in] dtypes: bool, int32, int64
extern "C" diopiError_t diopiBitwiseXor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise bitwise XOR of integral tensors (logical XOR for bool), with broadcasting.
//   input [inout] dtypes: bool, int32, int64
//   other [in] dtypes: bool, int32, int64
extern "C" diopiError_t diopiBitwiseXorInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                           diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise bitwise XOR of integral tensors (logical XOR for bool), with broadcasting.
//   out [out] dtypes: bool, int32, int64
//   input [in] dtypes: bool, int32, int64
//   other [in]
extern "C" diopiError_t diopiBitwiseXorScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                              diopiConstTensorHandle_t input,
                                              const diopiScalar_t* other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Element-wise bitwise XOR of integral tensors (logical XOR for bool), with broadcasting.
//   input [inout] dtypes: bool, int32, int64
//   other [in]
extern "C" diopiError_t diopiBitwiseXorInpScalar(diopiContextHandle_t ctx,
                                                 diopiTensorHandle_t input,
                                                 const diopiScalar_t* other) {
  (void)ctx;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
