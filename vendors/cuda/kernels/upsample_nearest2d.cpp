// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/upsample_nearest2d.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `upsample_nearest2d` family: Nearest-neighbour 2-D upsampling of [N, C,
// H, W] to size [oH, oW] (source index floor(dst * in / out)), and its backward (sums each output
// gradient into its source). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Nearest-neighbour 2-D upsampling of [N, C, H, W] to size [oH, oW] (source index floor(dst * in /
// out)), and its backward (sums each output gradient into its source).
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   size [in]
extern "C" diopiError_t diopiUpsampleNearest(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             diopiConstTensorHandle_t input, diopiSize_t size) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)size;
  return diopiNoImplement;
}

// Nearest-neighbour 2-D upsampling of [N, C, H, W] to size [oH, oW] (source index floor(dst * in /
// out)), and its backward (sums each output gradient into its source).
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   out_size [in]
//   in_size [in]
extern "C" diopiError_t diopiUpsampleNearestBackward(diopiContextHandle_t ctx,
                                                     diopiTensorHandle_t grad_input,
                                                     diopiConstTensorHandle_t grad_output,
                                                     diopiSize_t out_size, diopiSize_t in_size) {
  (void)ctx;
  (void)grad_input;
  (void)grad_output;
  (void)out_size;
  (void)in_size;
  return diopiNoImplement;
}
