// Scaffolded by `make new-vendor` from generated/vendor_stubs/inv.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `inv` family: Inverse of a batch of square matrices by LU factorization
// with partial pivoting (LAPACK getrf, getrs on the identity); info is getrf's per matrix (> 0
// singular, the inverse then holds inf / nan). Copy into vendors/<name>/kernels/ (make new-vendor
// does) and fill the bodies; a function left returning diopiNoImplement runs on CPU through the
// fallback.
#include <diopi/functions.h>

// Inverse of a batch of square matrices by LU factorization with partial pivoting (LAPACK getrf,
// getrs on the identity); info is getrf's per matrix (> 0 singular, the inverse then holds inf /
// nan).
//   inverse [out] dtypes: float32, float64
//   info [out] dtypes: int32
//   A [in] dtypes: float32, float64
extern "C" diopiError_t diopiLinalgInvEx(diopiContextHandle_t ctx, diopiTensorHandle_t inverse,
                                         diopiTensorHandle_t info, diopiConstTensorHandle_t A) {
  (void)ctx;
  (void)inverse;
  (void)info;
  (void)A;
  return diopiNoImplement;
}
