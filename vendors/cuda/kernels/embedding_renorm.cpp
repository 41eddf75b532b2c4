// Scaffolded by `make new-vendor` from
// generated/vendor_stubs/embedding_renorm.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `embedding_renorm` family: Rescales in place each row of the embedding
// table that indices name whose norm_type-norm exceeds max_norm to norm max_norm (scale max_norm /
// (norm + 1e-7)). Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the bodies; a
// function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Rescales in place each row of the embedding table that indices name whose norm_type-norm exceeds
// max_norm to norm max_norm (scale max_norm / (norm + 1e-7)).
//   inout [inout] dtypes: float32, float64
//   indices [in] dtypes: int64, int32
//   max_norm [in]
//   norm_type [in]
extern "C" diopiError_t diopiEmbeddingRenorm_(diopiContextHandle_t ctx, diopiTensorHandle_t inout,
                                              diopiConstTensorHandle_t indices, double max_norm,
                                              double norm_type) {
  (void)ctx;
  (void)inout;
  (void)indices;
  (void)max_norm;
  (void)norm_type;
  return diopiNoImplement;
}
