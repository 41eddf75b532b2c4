// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/masked_select.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `masked_select` family: The elements of input (broadcast with mask)
// where mask is true, in row-major order, as a 1-D tensor the kernel allocates because its length
// depends on the data. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// The elements of input (broadcast with mask) where mask is true, in row-major order, as a 1-D
// tensor the kernel allocates because its length depends on the data.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
extern "C" diopiError_t diopiMaskedSelect(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                                          diopiConstTensorHandle_t input,
                                          diopiConstTensorHandle_t mask) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mask;
  return diopiNoImplement;
}
