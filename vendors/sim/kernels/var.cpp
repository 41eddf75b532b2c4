// The `var` family: variance over the given dimensions with a Bessel correction, alone or with
// the mean. DIOPI extensions: diopiVar, diopiVarMean (common/moments.h).
#include <diopi/prototypes.h>

#include "common/moments.h"

using namespace simk;

diopiError_t diopiVar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiSize_t dim,
                      const diopiScalar_t* correction) {
  SIMK_KERNEL(diopiVar);
  return guarded(kernel.name,
                 [&] { moments_kernel<false>(kernel, ctx, out, nullptr, input, dim, correction); });
}

diopiError_t diopiVarMean(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiTensorHandle_t mean, diopiConstTensorHandle_t input, diopiSize_t dim,
                          const diopiScalar_t* correction) {
  SIMK_KERNEL(diopiVarMean);
  return guarded(kernel.name,
                 [&] { moments_kernel<false>(kernel, ctx, out, mean, input, dim, correction); });
}
