// Scaffolded by `make new-vendor` from generated/vendor_stubs/logcumsumexp.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `logcumsumexp` family: log(cumsum(exp(input))) along dim, computed
// stably (running maximum), in the input's dtype. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// log(cumsum(exp(input))) along dim, computed stably (running maximum), in the input's dtype.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   dim [in]
extern "C" diopiError_t diopiLogcumsumexp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t input, int64_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
