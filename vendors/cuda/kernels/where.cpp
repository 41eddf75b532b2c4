// Scaffolded by `make new-vendor` from generated/vendor_stubs/where.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `where` family: Selects input where condition is true, other elsewhere,
// with broadcasting. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Selects input where condition is true, other elsewhere, with broadcasting.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   condition [in] dtypes: bool
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   other [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiWhere(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t condition,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  (void)ctx;
  (void)out;
  (void)condition;
  (void)input;
  (void)other;
  return diopiNoImplement;
}
