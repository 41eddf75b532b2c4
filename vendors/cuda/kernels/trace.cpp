// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/trace.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `trace` family: The sum of a matrix's main diagonal, accumulated in
// double (floating) or int64 (integral inputs give an int64 result). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The sum of a matrix's main diagonal, accumulated in double (floating) or int64 (integral inputs
// give an int64 result).
//   out [out] dtypes: int8, uint8, int16, int32, int64, float32, float64
//   input [in] dtypes: int8, uint8, int16, int32, int64, float32, float64
extern "C" diopiError_t diopiTrace(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
