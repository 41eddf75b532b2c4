// Scaffolded by `make new-vendor` from generated/vendor_stubs/index_select.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `index_select` family: Selects slices of input along dim by a 1-D index,
// and scatters gradients back. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill
// the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Selects slices of input along dim by a 1-D index, and scatters gradients back.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64, int32
extern "C" diopiError_t diopiIndexSelect(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input, int64_t dim,
                                         diopiConstTensorHandle_t index) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  return diopiNoImplement;
}

// Selects slices of input along dim by a 1-D index, and scatters gradients back.
//   grad_input [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   grad [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input_sizes [in]
//   dim [in]
//   index [in] dtypes: int64, int32
extern "C" diopiError_t diopiIndexSelectBackward(diopiContextHandle_t ctx,
                                                 diopiTensorHandle_t grad_input,
                                                 diopiConstTensorHandle_t grad,
                                                 diopiSize_t input_sizes, int64_t dim,
                                                 diopiConstTensorHandle_t index) {
  (void)ctx;
  (void)grad_input;
  (void)grad;
  (void)input_sizes;
  (void)dim;
  (void)index;
  return diopiNoImplement;
}
