// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/igamma.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `igamma` family: The regularized lower (igamma) and upper (igammac)
// incomplete gamma functions P(input, other) and Q(input, other) with broadcasting. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The regularized lower (igamma) and upper (igammac) incomplete gamma functions P(input, other) and
// Q(input, other) with broadcasting.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   other [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiIgamma(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input,
                                    diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}

// The regularized lower (igamma) and upper (igammac) incomplete gamma functions P(input, other) and
// Q(input, other) with broadcasting.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   other [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiIgammac(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
