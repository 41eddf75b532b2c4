// The `std` family: standard deviation over the given dimensions with a Bessel correction,
// alone or with the mean. DIOPI: diopiStd; extension diopiStdMean (common/moments.h).
#include <diopi/prototypes.h>

#include "common/moments.h"

using namespace simk;

diopiError_t diopiStd(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, diopiSize_t dim,
                      const diopiScalar_t* correction) {
  SIMK_KERNEL(diopiStd);
  return guarded(kernel.name,
                 [&] { moments_kernel<true>(kernel, ctx, out, nullptr, input, dim, correction); });
}

diopiError_t diopiStdMean(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiTensorHandle_t mean, diopiConstTensorHandle_t input, diopiSize_t dim,
                          const diopiScalar_t* correction) {
  SIMK_KERNEL(diopiStdMean);
  return guarded(kernel.name,
                 [&] { moments_kernel<true>(kernel, ctx, out, mean, input, dim, correction); });
}
