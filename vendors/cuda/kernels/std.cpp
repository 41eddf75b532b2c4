// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/std.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `std` family: Standard deviation over the given dimensions (all when dim
// is empty), the square root of var with the same correction; keepdim is read from out's shape.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Standard deviation over the given dimensions (all when dim is empty), the square root of var with
// the same correction; keepdim is read from out's shape.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   dim [in] (may be null)
//   correction [in] (may be null)
extern "C" diopiError_t diopiStd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiSize_t dim,
                                 const diopiScalar_t* correction) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)correction;
  return diopiNoImplement;
}

// Standard deviation over the given dimensions (all when dim is empty), the square root of var with
// the same correction; keepdim is read from out's shape.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   mean [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   dim [in] (may be null)
//   correction [in] (may be null)
extern "C" diopiError_t diopiStdMean(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiTensorHandle_t mean, diopiConstTensorHandle_t input,
                                     diopiSize_t dim, const diopiScalar_t* correction) {
  (void)ctx;
  (void)out;
  (void)mean;
  (void)input;
  (void)dim;
  (void)correction;
  return diopiNoImplement;
}
