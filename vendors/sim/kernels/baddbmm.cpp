// The `baddbmm` family: out = beta * input + alpha * (batch1 @ batch2), input broadcast to the
// batched product's shape (beta 0 ignores input, NaN included). DIOPI: diopiBaddbmm,
// diopiBaddbmmInp.
#include <cblas.h>
#include <diopi/prototypes.h>

#include <algorithm>
#include <climits>
#include <cstdint>

#include "common/blas.h"
#include "common/elementwise.h"
#include "common/matmul.h"
#include "common/scalar.h"

using namespace simk;

diopiError_t diopiBaddbmm(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                          diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t batch1_h,
                          diopiConstTensorHandle_t batch2_h, double beta, double alpha) {
  SIMK_KERNEL(diopiBaddbmm);
  return guarded(kernel.name, [&] {
    add_product(kernel, ctx, product_args(out_h, input_h, batch1_h, batch2_h, 3, beta, alpha));
  });
}

diopiError_t diopiBaddbmmInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                             diopiConstTensorHandle_t batch1, diopiConstTensorHandle_t batch2,
                             double beta, double alpha) {
  return diopiBaddbmm(ctx, input, input, batch1, batch2, beta, alpha);
}
