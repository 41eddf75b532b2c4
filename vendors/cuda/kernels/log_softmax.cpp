// Scaffolded by `make new-vendor` from generated/vendor_stubs/log_softmax.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `log_softmax` family: Log-softmax along dim, and its backward from the
// forward output. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Log-softmax along dim, and its backward from the forward output.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   dim [in]
extern "C" diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input, int64_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}

// Log-softmax along dim, and its backward from the forward output.
//   grad_input [out] dtypes: float32, float64
//   grad_output [in] dtypes: float32, float64
//   output [in] dtypes: float32, float64
//   dim [in]
extern "C" diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx,
                                                diopiTensorHandle_t grad_input,
                                                diopiConstTensorHandle_t grad_output,
                                                diopiConstTensorHandle_t output, int64_t dim) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)output;
  (void)dim;
  return diopiNoImplement;
}
