// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/channel_shuffle.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `channel_shuffle` family: Splits dim 1 into groups and transposes them,
// [N, g, C / g, ...] -> [N, C / g, g, ...]. Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// Splits dim 1 into groups and transposes them, [N, g, C / g, ...] -> [N, C / g, g, ...].
//   out [out] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   groups [in]
extern "C" diopiError_t diopiChannelShuffle(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                            diopiConstTensorHandle_t input, int64_t groups) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)groups;
  return diopiNoImplement;
}
