// Scaffolded by `make new-vendor` from generated/vendor_stubs/heaviside.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `heaviside` family: Heaviside step, 0 for input < 0, values where input
// is 0, 1 for input > 0 (input and values of one dtype). Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Heaviside step, 0 for input < 0, values where input is 0, 1 for input > 0 (input and values of
// one dtype).
//   out [out] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
//   values [in] dtypes: bool, float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiHeaviside(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t values) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)values;
  return diopiNoImplement;
}
