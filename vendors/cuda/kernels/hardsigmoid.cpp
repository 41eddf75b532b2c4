// Scaffolded by `make new-vendor` from generated/vendor_stubs/hardsigmoid.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `hardsigmoid` family: Piecewise-linear sigmoid, min(max(x + 3, 0), 6)
// / 6. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Piecewise-linear sigmoid, min(max(x + 3, 0), 6) / 6.
//   out [out] dtypes: bfloat16, float32, float64
//   input [in] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiHardsigmoid(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input) {
  (void)ctx;
  (void)out;
  (void)input;
  return diopiNoImplement;
}

// Piecewise-linear sigmoid, min(max(x + 3, 0), 6) / 6.
//   input [inout] dtypes: bfloat16, float32, float64
extern "C" diopiError_t diopiHardsigmoidInp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {
  (void)ctx;
  (void)input;
  return diopiNoImplement;
}
