// Scaffolded by `make new-vendor` from generated/vendor_stubs/isin.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `isin` family: Whether each element of elements occurs in test_elements
// (invert negates); with assume_unique, repeated values give what ATen's sort-based search gives.
// Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a function
// left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Whether each element of elements occurs in test_elements (invert negates); with assume_unique,
// repeated values give what ATen's sort-based search gives.
//   out [out] dtypes: bool
//   elements [in] dtypes: int32, int64, float16, bfloat16, float32, float64
//   test_elements [in] dtypes: int32, int64, float16, bfloat16, float32, float64
//   assume_unique [in]
//   invert [in]
extern "C" diopiError_t diopiIsin(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                  diopiConstTensorHandle_t elements,
                                  diopiConstTensorHandle_t test_elements, bool assume_unique,
                                  bool invert) {
  (void)ctx;
  (void)out;
  (void)elements;
  (void)test_elements;
  (void)assume_unique;
  (void)invert;
  return diopiNoImplement;
}
