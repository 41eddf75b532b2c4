// Scaffolded by `make new-vendor` from generated/vendor_stubs/stack.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `stack` family: Stacks equally shaped tensors along a new dim.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Stacks equally shaped tensors along a new dim.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   tensors [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
extern "C" diopiError_t diopiStack(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t* tensors, int64_t numTensors,
                                   int64_t dim) {
  (void)ctx;
  (void)out;
  (void)tensors;
  (void)numTensors;
  (void)dim;
  return diopiNoImplement;
}
