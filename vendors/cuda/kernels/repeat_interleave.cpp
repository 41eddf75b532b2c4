// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/repeat_interleave.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `repeat_interleave` family: Each index i of a 1-D repeats tensor
// repeated repeats[i] times, in order (output_size, when given, must be that total); the kernel
// allocates the output because its length depends on the data. Copy into vendors/<name>/kernels/
// (make new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on
// CPU through the fallback.
#include <diopi/functions.h>

// Each index i of a 1-D repeats tensor repeated repeats[i] times, in order (output_size, when
// given, must be that total); the kernel allocates the output because its length depends on the
// data.
//   out [out] dtypes: int32, int64
//   repeats [in] dtypes: int32, int64
//   output_size [in] (may be null)
extern "C" diopiError_t diopiRepeatInterleave(diopiContextHandle_t ctx, diopiTensorHandle_t* out,
                                              diopiConstTensorHandle_t repeats,
                                              const int64_t* output_size) {
  (void)ctx;
  (void)out;
  (void)repeats;
  (void)output_size;
  return diopiNoImplement;
}
