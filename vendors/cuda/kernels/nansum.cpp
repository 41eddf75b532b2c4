// Scaffolded by `make new-vendor` from generated/vendor_stubs/nansum.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `nansum` family: Sum over the given dimensions (all when dim is empty)
// treating NaN as zero, accumulated in double; keepdim is read from out's shape. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Sum over the given dimensions (all when dim is empty) treating NaN as zero, accumulated in
// double; keepdim is read from out's shape.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   dim [in] (may be null)
extern "C" diopiError_t diopiNansum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, diopiSize_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
