// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/scatter_reduce.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `scatter_reduce` family: Combines src into input at the positions index
// gives along dim (sum, prod, mean, amax or amin; include_self false leaves input's value out of
// the reduction at scattered positions), in index order. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Combines src into input at the positions index gives along dim (sum, prod, mean, amax or amin;
// include_self false leaves input's value out of the reduction at scattered positions), in index
// order.
//   out [out] dtypes: int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   src [in] dtypes: int32, int64, float16, bfloat16, float32, float64
//   reduce [in]
//   include_self [in]
extern "C" diopiError_t diopiScatterReduce(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input, int64_t dim,
                                           diopiConstTensorHandle_t index,
                                           diopiConstTensorHandle_t src, const char* reduce,
                                           bool include_self) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  (void)src;
  (void)reduce;
  (void)include_self;
  return diopiNoImplement;
}

// Combines src into input at the positions index gives along dim (sum, prod, mean, amax or amin;
// include_self false leaves input's value out of the reduction at scattered positions), in index
// order.
//   out [out] dtypes: int32, int64, float16, bfloat16, float32, float64
//   input [in] dtypes: int32, int64, float16, bfloat16, float32, float64
//   dim [in]
//   index [in] dtypes: int64
//   src [in] dtypes: int32, int64, float16, bfloat16, float32, float64
extern "C" diopiError_t diopiScatterAdd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                        diopiConstTensorHandle_t input, int64_t dim,
                                        diopiConstTensorHandle_t index,
                                        diopiConstTensorHandle_t src) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  (void)index;
  (void)src;
  return diopiNoImplement;
}
