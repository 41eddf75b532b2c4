// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/addbmm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `addbmm` family: out = beta * input + alpha * (the sum over b of
// batch1[b] @ batch2[b]), input broadcast to [n, p] (beta 0 ignores input, NaN included). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = beta * input + alpha * (the sum over b of batch1[b] @ batch2[b]), input broadcast to [n, p]
// (beta 0 ignores input, NaN included).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   batch1 [in] dtypes: float32, float64
//   batch2 [in] dtypes: float32, float64
//   beta [in]
//   alpha [in]
extern "C" diopiError_t diopiAddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, diopiConstTensorHandle_t batch1,
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
