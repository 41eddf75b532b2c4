// Scaffolded by `make new-vendor` from generated/vendor_stubs/prod.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `prod` family: Product of the elements along dim (keepdim read from
// out's shape; every element when dim is null); floating inputs multiply in double, integral ones
// in int64 with wrap-around. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Product of the elements along dim (keepdim read from out's shape; every element when dim is
// null); floating inputs multiply in double, integral ones in int64 with wrap-around.
//   out [out] dtypes: float16, bfloat16, float32, float64, int32, int64
//   input [in] dtypes: float16, bfloat16, float32, float64, int32, int64
//   dim [in] (may be null)
extern "C" diopiError_t diopiProd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t input, const int64_t* dim) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)dim;
  return diopiNoImplement;
}
