// The `exponential` family: Fills inout with values drawn from the exponential distribution of
// rate lambd by the device generator. DIOPI: diopiExponentialInp (extension).
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiExponentialInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double lambd,
                                 diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiExponentialInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    // torch 2.x raises for lambd = 0, torch 1.13 fills inf: declined (as any lambd <= 0 or NaN),
    // the CPU answers.
    if (!(lambd > 0.0)) failf(diopiNoImplement, "lambd %g is not positive", lambd);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      // Inversion: -log(1 - u) / lambd with u in [0, 1).
      fill_each(out, [&](uint64_t i) { return -std::log1p(-unit(s.seed, s.first + i)) / lambd; });
    });
  });
}
