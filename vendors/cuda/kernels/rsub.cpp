// Scaffolded by `make new-vendor` from generated/vendor_stubs/rsub.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `rsub` family: Reversed subtraction with broadcasting, out = other -
// alpha * input. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Reversed subtraction with broadcasting, out = other - alpha * input.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   alpha [in]
extern "C" diopiError_t diopiRsub(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t other,
                                  const diopiScalar_t* alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)other;
  (void)alpha;
  return diopiNoImplement;
}
