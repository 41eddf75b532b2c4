// Scaffolded by `make new-vendor` from generated/vendor_stubs/repeat.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `repeat` family: Tiles input repeats[i] times along each dim (leading
// repeats add dims). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Tiles input repeats[i] times along each dim (leading repeats add dims).
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   repeats_size [in]
extern "C" diopiError_t diopiRepeat(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, diopiSize_t repeats_size) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)repeats_size;
  return diopiNoImplement;
}
