// Scaffolded by `make new-vendor` from generated/vendor_stubs/scatter.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `scatter` family: Writes src (or value) into input at the positions
// index gives along dim; reduce "add" or "multiply" combines instead of replacing. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Writes src (or value) into input at the positions index gives along dim; reduce "add" or
// "multiply" combines instead of replacing.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   src [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   index [in] dtypes: int64
//   reduce [in] (may be null)
extern "C" diopiError_t diopiScatter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input, int64_t dim,
                                     diopiConstTensorHandle_t src, diopiConstTensorHandle_t index,
                                     const char* reduce) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)src;
  (void)index;
  (void)reduce;
  return diopiNoImplement;
}

// Writes src (or value) into input at the positions index gives along dim; reduce "add" or
// "multiply" combines instead of replacing.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   src [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   index [in] dtypes: int64
//   reduce [in] (may be null)
extern "C" diopiError_t diopiScatterInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                        int64_t dim, diopiConstTensorHandle_t src,
                                        diopiConstTensorHandle_t index, const char* reduce) {
  (void)ctx;
  (void)input;
  (void)dim;
  (void)src;
  (void)index;
  (void)reduce;
  return diopiNoImplement;
}

// Writes src (or value) into input at the positions index gives along dim; reduce "add" or
// "multiply" combines instead of replacing.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   value [in]
//   index [in] dtypes: int64
//   reduce [in] (may be null)
extern "C" diopiError_t diopiScatterScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input, int64_t dim,
                                           const diopiScalar_t* value,
                                           diopiConstTensorHandle_t index, const char* reduce) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)value;
  (void)index;
  (void)reduce;
  return diopiNoImplement;
}

// Writes src (or value) into input at the positions index gives along dim; reduce "add" or
// "multiply" combines instead of replacing.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   value [in]
//   index [in] dtypes: int64
//   reduce [in] (may be null)
extern "C" diopiError_t diopiScatterInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                              int64_t dim, const diopiScalar_t* value,
                                              diopiConstTensorHandle_t index, const char* reduce) {
  (void)ctx;
  (void)input;
  (void)dim;
  (void)value;
  (void)index;
  (void)reduce;
  return diopiNoImplement;
}
