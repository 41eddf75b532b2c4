// The `log_normal` family: Fills inout with exp(x), x drawn from the normal distribution
// N(mean, std^2) by the device generator. DIOPI: diopiLogNormalInp (extension).
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiLogNormalInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double mean,
                               double std, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiLogNormalInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    SIMK_CHECK(std > 0.0, "log_normal_ expects std > 0.0, but found std=%g", std);
    const Stream s = reserve(generator, 2 * static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      fill_each(out, [&](uint64_t i) { return std::exp(normal_at(s, i, mean, std)); });
    });
  });
}
