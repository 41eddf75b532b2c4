// The `cauchy` family: Fills inout with values drawn from the Cauchy distribution median + sigma *
// tan(pi * (u - 1/2)) by the device generator. DIOPI: diopiCauchyInp (extension).
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiCauchyInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double median,
                            double sigma, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiCauchyInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    // torch 2.x raises for sigma <= 0, torch 1.13 draws with it: declined, the CPU answers.
    if (!(sigma > 0.0)) failf(diopiNoImplement, "sigma %g is not positive", sigma);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      constexpr double kPi = 3.14159265358979323846;
      fill_each(out, [&](uint64_t i) {
        return median + sigma * std::tan(kPi * (unit(s.seed, s.first + i) - 0.5));
      });
    });
  });
}
