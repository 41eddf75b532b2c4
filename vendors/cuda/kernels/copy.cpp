// Scaffolded by `make new-vendor` from generated/vendor_stubs/copy.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `copy` family: Copies src into dest on the device, converting dtype and
// honouring both layouts. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Copies src into dest on the device, converting dtype and honouring both layouts.
//   src [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   dest [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiCopyInp(diopiContextHandle_t ctx, diopiConstTensorHandle_t src,
                                     diopiTensorHandle_t dest) {
  (void)ctx;
  (void)src;
  (void)dest;
  return diopiNoImplement;
}

// Copies src into dest on the device, converting dtype and honouring both layouts.
//   out [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiCastDtype(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}
