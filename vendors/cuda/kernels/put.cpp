// Scaffolded by `make new-vendor` from generated/vendor_stubs/put.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `put` family: Writes (accumulate - adds) source's elements into input at
// the flat (row-major) positions index gives, negative ones counted from the end, in index order.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Writes (accumulate - adds) source's elements into input at the flat (row-major) positions index
// gives, negative ones counted from the end, in index order.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   index [in] dtypes: int64
//   source [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   accumulate [in]
extern "C" diopiError_t diopiPut(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiConstTensorHandle_t index,
                                 diopiConstTensorHandle_t source, bool accumulate) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)index;
  (void)source;
  (void)accumulate;
  return diopiNoImplement;
}

// Writes (accumulate - adds) source's elements into input at the flat (row-major) positions index
// gives, negative ones counted from the end, in index order.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   index [in] dtypes: int64
//   source [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   accumulate [in]
extern "C" diopiError_t diopiPutInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                    diopiConstTensorHandle_t index, diopiConstTensorHandle_t source,
                                    bool accumulate) {
  (void)ctx;
  (void)input;
  (void)index;
  (void)source;
  (void)accumulate;
  return diopiNoImplement;
}
