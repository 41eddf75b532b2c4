// Scaffolded by `make new-vendor` from generated/vendor_stubs/roll.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `roll` family: Rolls the elements by shifts[i] along dims[i] (elements
// leaving at the end come back at the start); with dims empty, the flattened tensor rolls by
// shifts[0]. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Rolls the elements by shifts[i] along dims[i] (elements leaving at the end come back at the
// start); with dims empty, the flattened tensor rolls by shifts[0].
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   shifts [in]
//   dims [in]
extern "C" diopiError_t diopiRoll(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiSize_t shifts,
                                  diopiSize_t dims) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)shifts;
  (void)dims;
  return diopiNoImplement;
}
