// Scaffolded by `make new-vendor` from generated/vendor_stubs/batch_norm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `batch_norm` family: Batch normalization over dim 1 (training
// statistics, or the running ones in evaluation); training updates running_mean and running_var in
// place. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Batch normalization over dim 1 (training statistics, or the running ones in evaluation); training
// updates running_mean and running_var in place.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   save_mean [out] dtypes: float16, bfloat16, float32, float64
//   save_invstd [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   bias [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   running_mean [inout] dtypes: float16, bfloat16, float32, float64 (may be null)
//   running_var [inout] dtypes: float16, bfloat16, float32, float64 (may be null)
//   training [in]
//   momentum [in]
//   eps [in]
extern "C" diopiError_t diopiBatchNorm(
    diopiContextHandle_t ctx, diopiTensorHandle_t out, diopiTensorHandle_t save_mean,
    diopiTensorHandle_t save_invstd, diopiConstTensorHandle_t input,
    diopiConstTensorHandle_t weight, diopiConstTensorHandle_t bias,
    diopiTensorHandle_t running_mean, diopiTensorHandle_t running_var, bool training,
    double momentum, double eps) {
  (void)ctx;
  (void)out;
  (void)save_mean;
  (void)save_invstd;
  (void)input;
  (void)weight;
  (void)bias;
  (void)running_mean;
  (void)running_var;
  (void)training;
  (void)momentum;
  (void)eps;
  return diopiNoImplement;
}

// Gradients of batch_norm; each of grad_input, grad_weight, grad_bias may be NULL (not wanted).
//   grad_input [out] dtypes: float16, bfloat16, float32, float64
//   grad_weight [out] dtypes: float16, bfloat16, float32, float64
//   grad_bias [out] dtypes: float16, bfloat16, float32, float64
//   grad_output [in] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   running_mean [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   running_var [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   save_mean [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   save_invstd [in] dtypes: float16, bfloat16, float32, float64 (may be null)
//   training [in]
//   eps [in]
extern "C" diopiError_t diopiBatchNormBackward(
    diopiContextHandle_t ctx, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight,
    diopiConstTensorHandle_t running_mean, diopiConstTensorHandle_t running_var,
    diopiConstTensorHandle_t save_mean, diopiConstTensorHandle_t save_invstd, bool training,
    double eps) {
  (void)ctx;
  (void)grad_input;
  (void)grad_weight;
  (void)grad_bias;
  (void)grad_output;
  (void)input;
  (void)weight;
  (void)running_mean;
  (void)running_var;
  (void)save_mean;
  (void)save_invstd;
  (void)training;
  (void)eps;
  return diopiNoImplement;
}
