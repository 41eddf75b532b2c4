// Scaffolded by `make new-vendor` from generated/vendor_stubs/addmv.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `addmv` family: out = beta * input + alpha * (mat @ vec), input
// broadcast to [mat.size(0)] (beta 0 ignores input, NaN included); mv is addmv without input. Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = beta * input + alpha * (mat @ vec), input broadcast to [mat.size(0)] (beta 0 ignores input,
// NaN included); mv is addmv without input.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   mat [in] dtypes: float32, float64
//   vec [in] dtypes: float32, float64
//   beta [in]
//   alpha [in]
extern "C" diopiError_t diopiAddmv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat,
                                   diopiConstTensorHandle_t vec, const diopiScalar_t* beta,
                                   const diopiScalar_t* alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mat;
  (void)vec;
  (void)beta;
  (void)alpha;
  return diopiNoImplement;
}

// out = beta * input + alpha * (mat @ vec), input broadcast to [mat.size(0)] (beta 0 ignores input,
// NaN included); mv is addmv without input.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   vec [in] dtypes: float32, float64
extern "C" diopiError_t diopiMv(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, diopiConstTensorHandle_t vec) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)vec;
  return diopiNoImplement;
}
