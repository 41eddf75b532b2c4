// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/searchsorted.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `searchsorted` family: For each element of input, the index at which it
// would be inserted into the innermost dim of sorted_sequence (1-D, or input's leading dims) to
// keep it sorted, the first such index (last when right); int32 when out_int32, else int64. Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// For each element of input, the index at which it would be inserted into the innermost dim of
// sorted_sequence (1-D, or input's leading dims) to keep it sorted, the first such index (last when
// right); int32 when out_int32, else int64.
//   out [out] dtypes: int32, int64
//   sorted_sequence [in] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32,
//   float64 input [in] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32,
//   float64 out_int32 [in] right [in] side [in] (may be null) sorter [in] dtypes: int64 (may be
//   null)
extern "C" diopiError_t diopiSearchsorted(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                          diopiConstTensorHandle_t sorted_sequence,
                                          diopiConstTensorHandle_t input, bool out_int32,
                                          bool right, const char* side,
                                          diopiConstTensorHandle_t sorter) {
  (void)ctx;
  (void)out;
  (void)sorted_sequence;
  (void)input;
  (void)out_int32;
  (void)right;
  (void)side;
  (void)sorter;
  return diopiNoImplement;
}

// For each element of input, the index at which it would be inserted into the innermost dim of
// sorted_sequence (1-D, or input's leading dims) to keep it sorted, the first such index (last when
// right); int32 when out_int32, else int64.
//   out [out] dtypes: int32, int64
//   input [in] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   boundaries [in] dtypes: int8, uint8, int16, int32, int64, float16, bfloat16, float32, float64
//   out_int32 [in]
//   right [in]
extern "C" diopiError_t diopiBucketize(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t boundaries, bool out_int32,
                                       bool right) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)boundaries;
  (void)out_int32;
  (void)right;
  return diopiNoImplement;
}
