// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/histc.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `histc` family: Histogram of input's elements in bins equal bins from
// min to max (the data's own range when min equals max, widened by 1 on each side when that is one
// point); elements outside and NaN are not counted, the last bin includes max. Copy into
// vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function left returning
// diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Histogram of input's elements in bins equal bins from min to max (the data's own range when min
// equals max, widened by 1 on each side when that is one point); elements outside and NaN are not
// counted, the last bin includes max.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   bins [in]
//   min [in]
//   max [in]
extern "C" diopiError_t diopiHistc(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, int64_t bins,
                                   const diopiScalar_t* min, const diopiScalar_t* max) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)bins;
  (void)min;
  (void)max;
  return diopiNoImplement;
}
