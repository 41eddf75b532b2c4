// Scaffolded by `make new-vendor` from generated/vendor_stubs/dot.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `dot` family: Inner product of two 1-D tensors of one length and dtype,
// accumulated in double (vdot is the same for real tensors). Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// Inner product of two 1-D tensors of one length and dtype, accumulated in double (vdot is the same
// for real tensors).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   other [in] dtypes: float32, float64
extern "C" diopiError_t diopiDot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// Inner product of two 1-D tensors of one length and dtype, accumulated in double (vdot is the same
// for real tensors).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   other [in] dtypes: float32, float64
extern "C" diopiError_t diopiVdot(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
