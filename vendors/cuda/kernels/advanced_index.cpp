// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/advanced_index.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `advanced_index` family: Advanced indexing input[indices[0], ...,
// indices[nums-1]]; a null entry keeps its dim whole, int64 entries broadcast together, a bool
// entry stands for the positions of its true elements; the kernel allocates the result because a
// bool entry makes its shape depend on the data. Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// Advanced indexing input[indices[0], ..., indices[nums-1]]; a null entry keeps its dim whole,
// int64 entries broadcast together, a bool entry stands for the positions of its true elements; the
// kernel allocates the result because a bool entry makes its shape depend on the data.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   indices [in] dtypes: int64, bool (may be null)
extern "C" diopiError_t diopiIndex(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                                   diopiConstTensorHandle_t input,
                                   diopiConstTensorHandle_t* indices, int64_t nums) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)indices;
  (void)nums;
  return diopiNoImplement;
}
