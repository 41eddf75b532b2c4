// The `dropout` family: Zeroes each element with probability p (a bool keep-mask drawn by the
// device generator) and scales the kept ones by 1 / (1 - p). DIOPI: diopiDropout,
// diopiDropoutBackward.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiDropout(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                          diopiTensorHandle_t mask_h, diopiConstTensorHandle_t input_h, double p,
                          bool train, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiDropout);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View mask = output_view(mask_h, "mask");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(mask, kAllTypes, "mask");
    SIMK_CHECK(same_shape(out, input) && same_shape(mask, input),
               "out %s and mask %s must have input's shape %s", out.shape_str().c_str(),
               mask.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(p >= 0.0 && p <= 1.0, "dropout probability has to be between 0 and 1, but got %g",
               p);
    // Evaluation mode: the input passes unchanged and every element is kept.
    const Stream s = train ? reserve(generator, static_cast<uint64_t>(out.numel())) : Stream{};
    const double keep = 1.0 - p;
    const double scale = p == 1.0 ? 0.0 : 1.0 / keep;
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> x = packed<T>(input);
        std::vector<T> y(x.size());
        std::vector<bool> m(x.size());
        for (size_t i = 0; i < x.size(); ++i) {
          m[i] = !train || unit(s.seed, s.first + i) < keep;
          y[i] = !train ? x[i] : convert<T>(m[i] ? static_cast<double>(load(x[i])) * scale : 0.0);
        }
        unpack(out, y);
        std::vector<uint8_t> mb(m.begin(), m.end());
        std::vector<double> md(mb.begin(), mb.end());
        unpack(mask, md);
      });
    });
  });
}

// OpWeave extension: dropout's gradient, grad_output * (mask * scale). Like ATen, scale is first
// rounded to the gradient's dtype; the product of two such values is exact in double, so
// rounding it once gives ATen's result in every floating dtype.
diopiError_t diopiDropoutBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input_h,
                                  diopiConstTensorHandle_t grad_output_h,
                                  diopiConstTensorHandle_t mask_h, double scale) {
  SIMK_KERNEL(diopiDropoutBackward);
  return guarded(kernel.name, [&] {
    const View grad_input = output_view(grad_input_h, "grad_input");
    const View grad_output = input_view(grad_output_h, "grad_output");
    const View mask = input_view(mask_h, "mask");
    check_dtype(grad_output, kFloating, "grad_output");
    check_dtype(grad_input, kFloating, "grad_input");
    SIMK_CHECK(mask.dtype == diopi_dtype_bool, "mask must be bool");
    SIMK_CHECK(same_shape(grad_input, grad_output) && same_shape(mask, grad_output),
               "grad_input %s and mask %s must have grad_output's shape %s",
               grad_input.shape_str().c_str(), mask.shape_str().c_str(),
               grad_output.shape_str().c_str());
    launch(kernel, ctx, grad_input, [=] {
      dispatch<kFloating>(grad_input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> g = packed<T>(grad_output);
        const std::vector<double> m = packed<double>(mask);
        const double s = static_cast<double>(load(convert<T>(scale)));
        std::vector<T> y(g.size());
        for (size_t i = 0; i < g.size(); ++i) {
          y[i] = convert<T>(static_cast<double>(load(g[i])) * (m[i] * s));  // inf * 0: NaN, as ATen
        }
        unpack(grad_input, y);
      });
    });
  });
}
