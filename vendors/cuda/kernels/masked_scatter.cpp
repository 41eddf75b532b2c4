// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/masked_scatter.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `masked_scatter` family: out = input with the elements where mask
// (broadcast to input) is true replaced, in row-major order, by consecutive elements of source
// (which needs at least as many elements as mask has true ones); the gradient of masked_select.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = input with the elements where mask (broadcast to input) is true replaced, in row-major
// order, by consecutive elements of source (which needs at least as many elements as mask has true
// ones); the gradient of masked_select.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
//   source [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiMaskedScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t mask,
                                           diopiConstTensorHandle_t source) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mask;
  (void)source;
  return diopiNoImplement;
}
