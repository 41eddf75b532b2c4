// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/frexp.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `frexp` family: Splits each element into a mantissa in (-1, -0.5] or
// [0.5, 1) and an int32 power of two, input = mantissa * 2^exponent (0, inf and NaN keep their
// value with exponent 0). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Splits each element into a mantissa in (-1, -0.5] or [0.5, 1) and an int32 power of two, input =
// mantissa * 2^exponent (0, inf and NaN keep their value with exponent 0).
//   mantissa [out] dtypes: float16, bfloat16, float32, float64
//   exponent [out] dtypes: int32
//   input [in] dtypes: float16, bfloat16, float32, float64
extern "C" diopiError_t diopiFrexp(diopiContextHandle_t ctx, diopiTensorHandle_t mantissa,
                                   diopiTensorHandle_t exponent, diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)mantissa;
  (void)exponent;
  (void)input;
  return diopiNoImplement;
}
