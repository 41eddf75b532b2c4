// Scaffolded by `make new-vendor` from generated/vendor_stubs/solve.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `solve` family: Solves A X = B (X A = B with left false) for batches of
// square A by LU with partial pivoting (LAPACK getrf, getrs), batch dims broadcast; lu_solve takes
// the factorization, solve_ex factors A (A^T when contiguous, as ATen) and also returns LU, pivots
// and getrf's info. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Solves A X = B (X A = B with left false) for batches of square A by LU with partial pivoting
// (LAPACK getrf, getrs), batch dims broadcast; lu_solve takes the factorization, solve_ex factors A
// (A^T when contiguous, as ATen) and also returns LU, pivots and getrf's info.
//   result [out] dtypes: float32, float64
//   LU [out] dtypes: float32, float64
//   pivots [out] dtypes: int32
//   info [out] dtypes: int32
//   A [in] dtypes: float32, float64
//   B [in] dtypes: float32, float64
//   left [in]
extern "C" diopiError_t diopiLinalgSolveEx(diopiContextHandle_t ctx, diopiTensorHandle_t result,
                                           diopiTensorHandle_t LU, diopiTensorHandle_t pivots,
                                           diopiTensorHandle_t info, diopiConstTensorHandle_t A,
                                           diopiConstTensorHandle_t B, bool left) {
  (void)ctx;
  (void)result;
  (void)LU;
  (void)pivots;
  (void)info;
  (void)A;
  (void)B;
  (void)left;
  return diopiNoImplement;
}

// Solves A X = B (X A = B with left false) for batches of square A by LU with partial pivoting
// (LAPACK getrf, getrs), batch dims broadcast; lu_solve takes the factorization, solve_ex factors A
// (A^T when contiguous, as ATen) and also returns LU, pivots and getrf's info.
//   out [out] dtypes: float32, float64
//   LU [in] dtypes: float32, float64
//   pivots [in] dtypes: int32
//   B [in] dtypes: float32, float64
//   left [in]
//   adjoint [in]
extern "C" diopiError_t diopiLinalgLuSolve(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t LU,
                                           diopiConstTensorHandle_t pivots,
                                           diopiConstTensorHandle_t B, bool left, bool adjoint) {
  (void)ctx;
  (void)out;
  (void)LU;
  (void)pivots;
  (void)B;
  (void)left;
  (void)adjoint;
  return diopiNoImplement;
}
