// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/addr.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `addr` family: out = beta * input + alpha * outer(vec1, vec2), input
// broadcast to [vec1.size(0), vec2.size(0)] (beta 0 ignores input, NaN included); computed in
// double, rounded once. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = beta * input + alpha * outer(vec1, vec2), input broadcast to [vec1.size(0), vec2.size(0)]
// (beta 0 ignores input, NaN included); computed in double, rounded once.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   vec1 [in] dtypes: float16, bfloat16, float32, float64
//   vec2 [in] dtypes: float16, bfloat16, float32, float64
//   beta [in]
//   alpha [in]
extern "C" diopiError_t diopiAddr(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t vec1,
                                  diopiConstTensorHandle_t vec2, const diopiScalar_t* beta,
                                  const diopiScalar_t* alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)vec1;
  (void)vec2;
  (void)beta;
  (void)alpha;
  return diopiNoImplement;
}
