// Scaffolded by `make new-vendor` from generated/vendor_stubs/bitwise_not.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `bitwise_not` family: Element-wise bitwise NOT of integral input
// (logical NOT for bool). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Element-wise bitwise NOT of integral input (logical NOT for bool).
//   out [out] dtypes: bool, int32, int64
//   input [in] dtypes: bool, int32, int64
extern "C" diopiError_t diopiBitwiseNot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Element-wise bitwise NOT of integral input (logical NOT for bool).
//   input [inout] dtypes: bool, int32, int64
extern "C" diopiError_t diopiBitwiseNotInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}
