// Scaffolded by `make new-vendor` from generated/vendor_stubs/index_fill.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `index_fill` family: Fills input's slices along dim that the 1-D index
// names (negative indices count from the end) with a scalar or a 0-dim tensor value. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills input's slices along dim that the 1-D index names (negative indices count from the end)
// with a scalar or a 0-dim tensor value.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   value [in]
extern "C" diopiError_t diopiIndexFillScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             diopiConstTensorHandle_t input, int64_t dim,
                                             diopiConstTensorHandle_t index,
                                             const diopiScalar_t* value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  (void)value;
  return diopiNoImplement;
}

// Fills input's slices along dim that the 1-D index names (negative indices count from the end)
// with a scalar or a 0-dim tensor value.
//   out [out] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   value [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiIndexFill(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input, int64_t dim,
                                       diopiConstTensorHandle_t index,
                                       diopiConstTensorHandle_t value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  (void)value;
  return diopiNoImplement;
}

// Fills input's slices along dim that the 1-D index names (negative indices count from the end)
// with a scalar or a 0-dim tensor value.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   value [in]
extern "C" diopiError_t diopiIndexFillInpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                                int64_t dim, diopiConstTensorHandle_t index,
                                                const diopiScalar_t* value) {
  (void)ctx;
  (void)input;
  (void)dim;
  (void)index;
  (void)value;
  return diopiNoImplement;
}

// Fills input's slices along dim that the 1-D index names (negative indices count from the end)
// with a scalar or a 0-dim tensor value.
//   input [inout] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   value [in] dtypes: bool, int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiIndexFillInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                                          int64_t dim, diopiConstTensorHandle_t index,
                                          diopiConstTensorHandle_t value) {
  (void)ctx;
  (void)input;
  (void)dim;
  (void)index;
  (void)value;
  return diopiNoImplement;
}
