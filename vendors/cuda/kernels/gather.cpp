// Scaffolded by `make new-vendor` from generated/vendor_stubs/gather.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `gather` family: Gathers values of input along dim at the positions of
// index, and scatters gradients back. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Gathers values of input along dim at the positions of index, and scatters gradients back.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
extern "C" diopiError_t diopiGather(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, int64_t dim,
                                    diopiConstTensorHandle_t index) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  return diopiNoImplement;
}

// Gathers values of input along dim at the positions of index, and scatters gradients back.
//   grad_input [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   grad_output [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
extern "C" diopiError_t diopiGatherBackward(diopiContextHandle_t ctx,
                                            diopiTensorHandle_t grad_input,
                                            diopiConstTensorHandle_t grad_output,
                                            diopiConstTensorHandle_t input, int64_t dim,
                                            diopiConstTensorHandle_t index) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)input;
  (void)dim;
  (void)index;
  return diopiNoImplement;
}
