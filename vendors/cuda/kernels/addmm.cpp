// Scaffolded by `make new-vendor` from generated/vendor_stubs/addmm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `addmm` family: out = beta * input + alpha * (mat1 @ mat2), input
// broadcast to the product's shape. Copy into vendors/<name>/kernels/ (make new-vendor does) and
// fill the bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// out = beta * input + alpha * (mat1 @ mat2), input broadcast to the product's shape.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   input [in] dtypes: float16, bfloat16, float32, float64
//   mat1 [in] dtypes: float16, bfloat16, float32, float64
//   mat2 [in] dtypes: float16, bfloat16, float32, float64
//   beta [in]
//   alpha [in]
extern "C" diopiError_t diopiAddmm(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                   diopiConstTensorHandle_t input, diopiConstTensorHandle_t mat1,
                                   diopiConstTensorHandle_t mat2, const diopiScalar_t* beta,
                                   const diopiScalar_t* alpha) {
  (void)ctx;
  (void)out;
  (void)input;
  (void)mat1;
  (void)mat2;
  (void)beta;
  (void)alpha;
  return diopiNoImplement;
}
