// The `log_softmax` family: Log-softmax along dim, and its backward from the forward output.
// DIOPI: diopiLogSoftmax, diopiLogSoftmaxBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>

#include "common/elementwise.h"
#include "common/softmax.h"

using namespace simk;

diopiError_t diopiLogSoftmax(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, int64_t dim) {
  SIMK_KERNEL(diopiLogSoftmax);
  return guarded(kernel.name, [&] { softmax_forward(kernel, ctx, out, input, dim, true); });
}

diopiError_t diopiLogSoftmaxBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                     diopiConstTensorHandle_t grad_output,
                                     diopiConstTensorHandle_t output, int64_t dim) {
  SIMK_KERNEL(diopiLogSoftmaxBackward);
  return guarded(kernel.name, [&] {
    softmax_backward(kernel, ctx, grad_input, grad_output, output, dim, true);
  });
}
