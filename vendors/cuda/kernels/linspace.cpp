// Scaffolded by `make new-vendor` from generated/vendor_stubs/linspace.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `linspace` family: Fills out with steps values evenly spaced from start
// to end inclusive (as ATen computes them, the first half from start and the second from end). Copy
// into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left
// returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills out with steps values evenly spaced from start to end inclusive (as ATen computes them, the
// first half from start and the second from end).
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   start [in]
//   end [in]
//   steps [in]
extern "C" diopiError_t diopiLinspace(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      const diopiScalar_t* start, const diopiScalar_t* end,
                                      int64_t steps) {
  (void)ctx;
  (void)out;
  (void)start;
  (void)end;
  (void)steps;
  return diopiNoImplement;
}
