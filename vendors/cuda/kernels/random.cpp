// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/random.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `random` family: Fills inout with integers drawn uniformly from [from,
// to - 1] by the device generator (to NULL - [from, the dtype's largest integer], 2^mantissa digits
// for a floating dtype). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills inout with integers drawn uniformly from [from, to - 1] by the device generator (to NULL -
// [from, the dtype's largest integer], 2^mantissa digits for a floating dtype).
//   inout [inout] dtypes: float16, bfloat16, float32, float64, int8, uint8, int16, int32, int64
//   from [in]
//   to [in] (may be null)
//   generator [in] (may be null)
extern "C" diopiError_t diopiRandomInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                       int64_t from, const int64_t* to,
                                       diopiGeneratorHandle_t generator) {
  (void)ctx;
  (void)inout;
  (void)from;
  (void)to;
  (void)generator;
  return diopiNoImplement;
}
