// The `geometric` family: Fills inout with the number of Bernoulli(p) trials up to the first
// success (1, 2, ...) drawn by the device generator. DIOPI: diopiGeometricInp (extension).
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiGeometricInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double p,
                               diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiGeometricInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    SIMK_CHECK(p > 0.0 && p < 1.0, "geometric_ expects p to be in (0, 1), but got p=%g", p);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      // Inversion: ceil(log(u) / log(1 - p)) with u in (0, 1]; u = 1 would give 0 trials.
      const double denom = std::log1p(-p);
      fill_each(out, [&](uint64_t i) {
        const double u = 1.0 - unit(s.seed, s.first + i);
        return std::max(1.0, std::ceil(std::log(u) / denom));
      });
    });
  });
}
