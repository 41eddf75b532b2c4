// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/aminmax.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `aminmax` family: The minimum and the maximum along dim (over every
// element when dim is null), NaN propagating to both. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// The minimum and the maximum along dim (over every element when dim is null), NaN propagating to
// both.
//   min [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   max [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   dim [in] (may be null)
//   keepdim [in]
extern "C" diopiError_t diopiAminmax(diopiContextHandle_t ctx, diopiTensorHandle_t min,
                                     diopiTensorHandle_t max, diopiConstTensorHandle_t input,
                                     const int64_t* dim, bool keepdim) {
  (void)ctx;
  (void)min;
  (void)max;
  (void)input;
  (void)dim;
  (void)keepdim;
  return diopiNoImplement;
}
