// Scaffolded by `make new-vendor` from generated/vendor_stubs/argmin.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `argmin` family: Index of the first minimum along dim (over the
// flattened input when dim is absent). Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Index of the first minimum along dim (over the flattened input when dim is absent).
//   out [out] dtypes: int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in] (may be null)
//   keepdim [in]
extern "C" diopiError_t diopiArgmin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, const int64_t* dim,
                                    bool keepdim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)keepdim;
  return diopiNoImplement;
}
