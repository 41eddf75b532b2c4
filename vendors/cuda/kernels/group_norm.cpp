// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/group_norm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `group_norm` family: Group normalization of input [N, C, *] over
// num_groups groups of channels, then a per-channel affine; saves each (sample, group)'s mean and
// 1/std. Statistics in double, each output rounded once. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Group normalization of input [N, C, *] over num_groups groups of channels, then a per-channel
// affine; saves each (sample, group)'s mean and 1/std. Statistics in double, each output rounded
// once.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   save_mean [out] dtypes: float16, bfloat16, float32, float64
//   save_invstd [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   bias [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   num_groups [in]
//   eps [in]
extern "C" diopiError_t diopiGroupNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiTensorHandle_t save_mean,
                                       diopiTensorHandle_t save_invstd,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t weight,
                                       diopiConstTensorHandle_t bias, int64_t num_groups,
                                       double eps) {
  (void)ctx;
  (void)out;
  (void)save_mean;
  (void)save_invstd;
  (void)input;
  (void)weight;
  (void)bias;
  (void)num_groups;
  (void)eps;
  return diopiNoImplement;
}
