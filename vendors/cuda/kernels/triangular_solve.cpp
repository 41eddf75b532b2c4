// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/triangular_solve.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `triangular_solve` family: Solves triangular systems with the upper or
// lower triangle of A (BLAS trsm, as ATen's CPU kernel), batch dims broadcast; the other triangle
// is not read, unitriangular takes the diagonal as ones. Copy into vendors/<name>/kernels/ (make
// new-vendor does) and fill the bodies; a function left returning diopiNoImplement runs on CPU
// through the fallback.
#include <diopi/functions.h>

// Solves triangular systems with the upper or lower triangle of A (BLAS trsm, as ATen's CPU
// kernel), batch dims broadcast; the other triangle is not read, unitriangular takes the diagonal
// as ones.
//   out [out] dtypes: float32, float64
//   cloned_mat [out] dtypes: float32, float64
//   b [in] dtypes: float32, float64
//   mat [in] dtypes: float32, float64
//   upper [in]
//   transpose [in]
//   unitriangular [in]
extern "C" diopiError_t diopiTriangularSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                             diopiTensorHandle_t cloned_mat,
                                             diopiConstTensorHandle_t b,
                                             diopiConstTensorHandle_t mat, bool upper,
                                             bool transpose, bool unitriangular) {
  (void)ctx;
  (void)out;
  (void)cloned_mat;
  (void)b;
  (void)mat;
  (void)upper;
  (void)transpose;
  (void)unitriangular;
  return diopiNoImplement;
}

// Solves triangular systems with the upper or lower triangle of A (BLAS trsm, as ATen's CPU
// kernel), batch dims broadcast; the other triangle is not read, unitriangular takes the diagonal
// as ones.
//   out [out] dtypes: float32, float64
//   A [in] dtypes: float32, float64
//   B [in] dtypes: float32, float64
//   upper [in]
//   left [in]
//   unitriangular [in]
extern "C" diopiError_t diopiLinalgSolveTriangular(diopiContextHandle_t ctx,
                                                   diopiTensorHandle_t out,
                                                   diopiConstTensorHandle_t A,
                                                   diopiConstTensorHandle_t B, bool upper,
                                                   bool left, bool unitriangular) {
  (void)ctx;
  (void)out;
  (void)A;
  (void)B;
  (void)upper;
  (void)left;
  (void)unitriangular;
  return diopiNoImplement;
}
