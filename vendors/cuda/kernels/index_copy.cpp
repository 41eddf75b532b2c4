// Scaffolded by `make new-vendor` from generated/vendor_stubs/index_copy.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `index_copy` family: Copies source's slices along dim into input's
// slices the 1-D index names, in index order (the last of repeated indices wins). Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Copies source's slices along dim into input's slices the 1-D index names, in index order (the
// last of repeated indices wins).
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   source [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiIndexCopy(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, int64_t dim,
                                       diopiConstTensorHandle_t index,
                                       diopiConstTensorHandle_t source) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  (void)source;
  return diopiNoImplement;
}
