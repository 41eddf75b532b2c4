// Scaffolded by `make new-vendor` from generated/vendor_stubs/take.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `take` family: Elements of input at the flat (row-major) positions index
// gives, negative ones counted from the end; index's shape. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Elements of input at the flat (row-major) positions index gives, negative ones counted from the
// end; index's shape.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   index [in] dtypes: int64
extern "C" diopiError_t diopiTake(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, diopiConstTensorHandle_t index) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)index;
  return diopiNoImplement;
}
