// Scaffolded by `make new-vendor` from generated/vendor_stubs/qr.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `qr` family: QR decomposition of a batch of matrices [*, m, n] (LAPACK
// geqrf, orgqr); mode reduced (Q [m, k], R [k, n]), complete (Q [m, m], R [m, n]) or r (R only, Q
// empty). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// QR decomposition of a batch of matrices [*, m, n] (LAPACK geqrf, orgqr); mode reduced (Q [m, k],
// R [k, n]), complete (Q [m, m], R [m, n]) or r (R only, Q empty).
//   A [in] dtypes: float32, float64
//   mode [in]
//   Q [out] dtypes: float32, float64
//   R [out] dtypes: float32, float64
extern "C" diopiError_t diopiLinalgQR(diopiContextHandle_t ctx, diopiConstTensorHandle_t A,
                                      const char* mode, diopiTensorHandle_t Q,
                                      diopiTensorHandle_t R) {
  (void)ctx;
  (void)A;
  (void)mode;
  (void)Q;
  (void)R;
  return diopiNoImplement;
}
