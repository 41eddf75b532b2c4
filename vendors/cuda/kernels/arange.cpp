// Scaffolded by `make new-vendor` from generated/vendor_stubs/arange.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `arange` family: Fills out with start, start + step, ... (values
// computed in double, or int64 for integral out). Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Fills out with start, start + step, ... (values computed in double, or int64 for integral out).
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   start [in]
//   end [in]
//   step [in]
extern "C" diopiError_t diopiArange(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    const diopiScalar_t* start, const diopiScalar_t* end,
                                    const diopiScalar_t* step) {
  (void)ctx;
  (void)out;
  (void)start;
  (void)end;
  (void)step;
  return diopiNoImplement;
}
