// The `bernoulli` family: Draws 0 or 1 per element by the device generator, 1 with probability p
// (a scalar, or the input's element). DIOPI: diopiBernoulliScalar, diopiBernoulli.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiBernoulliScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out_h, double p,
                                  diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiBernoulliScalar);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    check_dtype(out, kAllTypes, "out");
    SIMK_CHECK(p >= 0.0 && p <= 1.0, "bernoulli_ expects p to be in [0, 1], but got p=%g", p);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      fill_each(out, [&](uint64_t i) { return unit(s.seed, s.first + i) < p ? 1.0 : 0.0; });
    });
  });
}

diopiError_t diopiBernoulli(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                            diopiConstTensorHandle_t input_h, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiBernoulli);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kAllTypes, "out");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(same_shape(out, input), "out has shape %s, input (the probabilities) %s",
               out.shape_str().c_str(), input.shape_str().c_str());
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      const std::vector<double> prob = packed<double>(input);
      fill_each(out, [&](uint64_t i) {
        const double p = prob[i];
        SIMK_CHECK(p >= 0.0 && p <= 1.0,
                   "bernoulli expects all elements of input to be in [0, 1], "
                   "found %g",
                   p);
        return unit(s.seed, s.first + i) < p ? 1.0 : 0.0;
      });
    });
  });
}
