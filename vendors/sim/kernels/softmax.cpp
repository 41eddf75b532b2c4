// The `softmax` family: Softmax along dim, and its backward from the forward output. DIOPI:
// diopiSoftmax, diopiSoftmaxBackward.
#include "common/softmax.h"

#include <diopi/prototypes.h>

#include <cmath>
#include <limits>

#include "common/elementwise.h"

using namespace simk;

diopiError_t diopiSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiSoftmax);
  return guarded(kernel.name, [&] { softmax_forward(kernel, ctx, out, input, dim, false); });
}

diopiError_t diopiSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                  diopiConstTensorHandle_t grad_output,
                                  diopiConstTensorHandle_t output, int64_t dim) {
  SIMK_KERNEL(diopiSoftmaxBackward);
  return guarded(kernel.name, [&] {
    softmax_backward(kernel, ctx, grad_input, grad_output, output, dim, false);
  });
}
