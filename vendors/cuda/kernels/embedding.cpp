// Scaffolded by `make new-vendor` from generated/vendor_stubs/embedding.cpp: this file is yours.
// Fill a kernel body and return diopiSuccess; re-running `make new-vendor` never
// overwrites it, it only appends stubs for new catalogue functions.
//
// Kernel skeletons for the `embedding` family: Looks up rows of weight by index, and accumulates
// the rows' gradients back. Copy into vendors/<name>/kernels/ (make new-vendor does) and fill the
// bodies; a function left returning diopiNoImplement runs on CPU through the fallback.
#include <diopi/functions.h>

// Looks up rows of weight by index, and accumulates the rows' gradients back.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   weight [in] dtypes: float16, bfloat16, float32, float64
//   indices [in] dtypes: int64, int32
//   padding_idx [in]
//   scale_grad_byfreq [in]
//   sparse [in]
extern "C" diopiError_t diopiEmbedding(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t weight,
                                       diopiConstTensorHandle_t indices, int64_t padding_idx,
                                       bool scale_grad_byfreq, bool sparse) {
  (void)ctx;
  (void)out;
  (void)weight;
  (void)indices;
  (void)padding_idx;
  (void)scale_grad_byfreq;
  (void)sparse;
  return diopiNoImplement;
}

// Dense gradient of the embedding weight; rows at padding_idx stay zero.
//   out [out] dtypes: float16, bfloat16, float32, float64
//   grad [in] dtypes: float16, bfloat16, float32, float64
//   indices [in] dtypes: int64, int32
//   num_weights [in]
//   padding_idx [in]
//   scale_grad_byfreq [in]
//   sparse [in]
extern "C" diopiError_t diopiEmbeddingBackward(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                               diopiConstTensorHandle_t grad,
                                               diopiConstTensorHandle_t indices,
                                               int64_t num_weights, int64_t padding_idx,
                                               bool scale_grad_byfreq, bool sparse) {
  (void)ctx;
  (void)out;
  (void)grad;
  (void)indices;
  (void)num_weights;
  (void)padding_idx;
  (void)scale_grad_byfreq;
  (void)sparse;
  return diopiNoImplement;
}
