// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/prelu.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `prelu` family: Parametric ReLU, max(0, x) + weight * min(0, x), weight
// one value or one per channel (dim 1). Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Parametric ReLU, max(0, x) + weight * min(0, x), weight one value or one per channel (dim 1).
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   weight [in] dtypes: float32, float64
extern "C" diopiError_t diopiPrelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input,
                                   diopiConstTensorHandle_t weight) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)weight;
  return diopiNoImplement;
}
