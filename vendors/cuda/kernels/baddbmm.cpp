// Scaffolded by `make new-vendor` from generated/vendor_stubs/baddbmm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `baddbmm` family: out = beta * input + alpha * (batch1 @ batch2), input
// broadcast to the batched product's shape (beta 0 ignores input, NaN included). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = beta * input + alpha * (batch1 @ batch2), input broadcast to the batched product's shape
// (beta 0 ignores input, NaN included).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   batch1 [in] dtypes: float16, bfloat16, float32, float64
//   batch2 [in] dtypes: float16, bfloat16, float32, float64
//   beta [in]
//   alpha [in]
extern "C" diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t batch1,
                                     diopiConstTensorHandle_t batch2, double beta, double alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)batch1;
  (void)batch2;
  (void)beta;
  (void)alpha;
  return diopiNoImplement;
}

// out = beta * input + alpha * (batch1 @ batch2), input broadcast to the batched product's shape
// (beta 0 ignores input, NaN included).
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   batch1 [in] dtypes: float16, bfloat16, float32, float64
//   batch2 [in] dtypes: float16, bfloat16, float32, float64
//   beta [in]
//   alpha [in]
extern "C" diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                        diopiConstTensorHandle_t batch1,
                                        diopiConstTensorHandle_t batch2, double beta,
                                        double alpha) {
  (void)ctx;
  (void)input;
  (void)batch1;
  (void)batch2;
  (void)beta;
  (void)alpha;
  return diopiNoImplement;
}
