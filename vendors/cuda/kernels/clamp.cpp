// Scaffolded by `make new-vendor` from generated/vendor_stubs/clamp.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `clamp` family: Clamps every element into [min, max]; a missing bound is
// not applied. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Clamps every element into [min, max]; a missing bound is not applied.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in] (may be null)
//   max [in] (may be null)
extern "C" diopiError_t diopiClampScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                         diopiConstTensorHandle_t input, const diopiScalar_t* min,
                                         const diopiScalar_t* max) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)min;
  (void)max;
  return diopiNoImplement;
}

// Clamps every element into [min, max]; a missing bound is not applied.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in] (may be null)
//   max [in] (may be null)
extern "C" diopiError_t diopiClampInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                            const diopiScalar_t* min, const diopiScalar_t* max) {
  (void)ctx;
  (void)input;
  (void)min;
  (void)max;
  return diopiNoImplement;
}

// Clamps every element into [min, max]; a missing bound is not applied.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in]
extern "C" diopiError_t diopiClampMinScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                            diopiConstTensorHandle_t input,
                                            const diopiScalar_t* min) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)min;
  return diopiNoImplement;
}

// Clamps every element into [min, max]; a missing bound is not applied.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in]
extern "C" diopiError_t diopiClampMinInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                               const diopiScalar_t* min) {
  (void)ctx;
  (void)input;
  (void)min;
  return diopiNoImplement;
}

// Clamps every element into [min, max]; a missing bound is not applied.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   max [in]
extern "C" diopiError_t diopiClampMaxScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                            diopiConstTensorHandle_t input,
                                            const diopiScalar_t* max) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)max;
  return diopiNoImplement;
}

// Clamps every element into [min, max]; a missing bound is not applied.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   max [in]
extern "C" diopiError_t diopiClampMaxInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                               const diopiScalar_t* max) {
  (void)ctx;
  (void)input;
  (void)max;
  return diopiNoImplement;
}

// Clamps every element into [min, max] with tensor bounds broadcast to input (a null bound is not
// applied); NaN in input or a bound gives NaN, min > max gives max.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in] dtypes: float16, bfloat16, float32, float64, int32, int64 (may be null)
//   max [in] dtypes: float16, bfloat16, float32, float64, int32, int64 (may be null)
extern "C" diopiError_t diopiClamp(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t min,
                                   diopiConstTensorHandle_t max) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)min;
  (void)max;
  return diopiNoImplement;
}

// In-place diopiClamp.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in] dtypes: float16, bfloat16, float32, float64, int32, int64 (may be null)
//   max [in] dtypes: float16, bfloat16, float32, float64, int32, int64 (may be null)
extern "C" diopiError_t diopiClampInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                      diopiConstTensorHandle_t min, diopiConstTensorHandle_t max) {
  (void)ctx;
  (void)input;
  (void)min;
  (void)max;
  return diopiNoImplement;
}

// Element-wise max(input, min) with a tensor bound broadcast to input (NaN propagates).
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiClampMin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t min) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)min;
  return diopiNoImplement;
}

// In-place diopiClampMin.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   min [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiClampMinInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         diopiConstTensorHandle_t min) {
  (void)ctx;
  (void)input;
  (void)min;
  return diopiNoImplement;
}

// Element-wise min(input, max) with a tensor bound broadcast to input (NaN propagates).
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   max [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiClampMax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      diopiConstTensorHandle_t input,
                                      diopiConstTensorHandle_t max) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)max;
  return diopiNoImplement;
}

// In-place diopiClampMax.
//   input [inout] dtypes: float16, bfloat16, float32, float64, int32, int64
//   max [in] dtypes: float16, bfloat16, float32, float64, int32, int64
extern "C" diopiError_t diopiClampMaxInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                         diopiConstTensorHandle_t max) {
  (void)ctx;
  (void)input;
  (void)max;
  return diopiNoImplement;
}
