// Scaffolded by `make new-vendor` from generated/vendor_stubs/nan_to_num.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `nan_to_num` family: Replaces NaN, +inf and -inf with the given values
// (NULL; 0, the dtype's largest and lowest finite value). Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Replaces NaN, +inf and -inf with the given values (NULL; 0, the dtype's largest and lowest finite
// value).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   nan [in] (may be null)
//   posinf [in] (may be null)
//   neginf [in] (may be null)
extern "C" diopiError_t diopiNanToNum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input, const double* nan,
                                      const double* posinf, const double* neginf) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)nan;
  (void)posinf;
  (void)neginf;
  return diopiNoImplement;
}

// Replaces NaN, +inf and -inf with the given values (NULL; 0, the dtype's largest and lowest finite
// value).
//   input [inout] dtypes: float16, bfloat16, float32, float64
//   nan [in] (may be null)
//   posinf [in] (may be null)
//   neginf [in] (may be null)
extern "C" diopiError_t diopiNanToNumInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         const double* nan, const double* posinf,
                                         const double* neginf) {
  (void)ctx;
  (void)input;
  (void)nan;
  (void)posinf;
  (void)neginf;
  return diopiNoImplement;
}
