// Scaffolded by `make new-vendor` from generated/vendor_stubs/norm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `norm` family: Vector p-norm over dim (every dim when empty; p null is
// 2, inf / -inf the largest / smallest magnitude, 0 the count of nonzeros), computed in double;
// keepdim is read from out's shape. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Vector p-norm over dim (every dim when empty; p null is 2, inf / -inf the largest / smallest
// magnitude, 0 the count of nonzeros), computed in double; keepdim is read from out's shape.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   p [in] (may be null)
//   dim [in]
extern "C" diopiError_t diopiNorm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, const diopiScalar_t* p,
                                  diopiSize_t dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)p;
  (void)dim;
  return diopiNoImplement;
}
