// Scaffolded by `make new-vendor` from generated/vendor_stubs/logspace.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `logspace` family: Fills out with base ** x for steps exponents x evenly
// spaced from start to end inclusive (as ATen computes them, the first half from start and the
// second from end, in out's dtype). Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Fills out with base ** x for steps exponents x evenly spaced from start to end inclusive (as ATen
// computes them, the first half from start and the second from end, in out's dtype).
//   out [out] dtypes: float32, float64
//   start [in]
//   end [in]
//   steps [in]
//   base [in]
extern "C" diopiError_t diopiLogspace(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                      const diopiScalar_t* start, const diopiScalar_t* end,
                                      int64_t steps, double base) {
  (void)ctx;
  (void)out;
  (void)start;
  (void)end;
  (void)steps;
  (void)base;
  return diopiNoImplement;
}
