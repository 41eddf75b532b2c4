// Scaffolded by `make new-vendor` from generated/vendor_stubs/masked_fill.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `masked_fill` family: Replaces the elements of input where mask
// (broadcast to input) is true by value. Copy into vendors/<name>/kernels/ (make new-vendor does)
// and fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Replaces the elements of input where mask (broadcast to input) is true by value.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
//   value [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiMaskedFill(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input,
                                        diopiConstTensorHandle_t mask,
                                        diopiConstTensorHandle_t value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mask;
  (void)value;
  return diopiNoImplement;
}

// Replaces the elements of input where mask (broadcast to input) is true by value.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
//   value [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiMaskedFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                           diopiConstTensorHandle_t mask,
                                           diopiConstTensorHandle_t value) {
  (void)ctx;
  (void)input;
  (void)mask;
  (void)value;
  return diopiNoImplement;
}

// Replaces the elements of input where mask (broadcast to input) is true by value.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
//   value [in]
extern "C" diopiError_t diopiMaskedFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                              diopiConstTensorHandle_t input,
                                              diopiConstTensorHandle_t mask,
                                              const diopiScalar_t* value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mask;
  (void)value;
  return diopiNoImplement;
}

// Replaces the elements of input where mask (broadcast to input) is true by value.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   mask [in] dtypes: bool
//   value [in]
extern "C" diopiError_t diopiMaskedFillInpScalar(diopiContextHandle_t ctx,
                                                 diopiTensorHandle_t input,
                                                 diopiConstTensorHandle_t mask,
                                                 const diopiScalar_t* value) {
  (void)ctx;
  (void)input;
  (void)mask;
  (void)value;
  return diopiNoImplement;
}
