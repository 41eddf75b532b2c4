// Scaffolded by `make new-vendor` from generated/vendor_stubs/cat.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `cat` family: Concatenates tensors along dim (1-D empty tensors are
// skipped, as ATen does). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Concatenates tensors along dim (1-D empty tensors are skipped, as ATen does).
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   tensors [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
extern "C" diopiError_t diopiCat(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t* tensors, int64_t num_inputs,
                                 int64_t dim) {
  (void)ctx;
  (void)out;
  (void)tensors;
  (void)num_inputs;
  (void)dim;
  return diopiNoImplement;
}
