// Scaffolded by `make new-vendor` from generated/vendor_stubs/renorm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `renorm` family: Rescales each slice of input along dim whose p-norm
// exceeds maxnorm to norm maxnorm (factor maxnorm / (norm + 1e-7), in the accumulate type); other
// slices are kept. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Rescales each slice of input along dim whose p-norm exceeds maxnorm to norm maxnorm (factor
// maxnorm / (norm + 1e-7), in the accumulate type); other slices are kept.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   p [in]
//   dim [in]
//   maxnorm [in]
extern "C" diopiError_t diopiRenorm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                    diopiConstTensorHandle_t input, const diopiScalar_t* p,
                                    int64_t dim, const diopiScalar_t* maxnorm) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)p;
  (void)dim;
  (void)maxnorm;
  return diopiNoImplement;
}
