// Scaffolded by `make new-vendor` from generated/vendor_stubs/nonzero.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `nonzero` family: Indices of the nonzero elements of input (NaN counts
// as nonzero), one row per element in row-major order, as an int64 [count, ndim] tensor the kernel
// allocates because count depends on the data. Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// Indices of the nonzero elements of input (NaN counts as nonzero), one row per element in
// row-major order, as an int64 [count, ndim] tensor the kernel allocates because count depends on
// the data.
//   out [out] dtypes: int64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiNonzero(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                                     diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
