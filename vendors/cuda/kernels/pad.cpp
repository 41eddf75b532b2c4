// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/pad.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `pad` family: Pads the last len(pad) / 2 dims of input, the last dim by
// the first (left, right) pair, mirroring the border ('reflect') or repeating it ('replicate');
// negative pads crop. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies;
// a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Pads the last len(pad) / 2 dims of input, the last dim by the first (left, right) pair, mirroring
// the border ('reflect') or repeating it ('replicate'); negative pads crop.
//   out [out] dtypes: float32, float64
//   input [in] dtypes: float32, float64
//   pad [in]
//   mode [in] (may be null)
//   value [in] (may be null)
extern "C" diopiError_t diopiPad(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiSize_t pad, const char* mode,
                                 const double* value) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)pad;
  (void)mode;
  (void)value;
  return diopiNoImplement;
}
