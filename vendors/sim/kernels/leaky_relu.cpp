// The `leaky_relu` family: Leaky rectified linear unit, x for x > 0 and negative_slope * x
// otherwise, and its backward. DIOPI: diopiLeakyRelu, diopiLeakyReluInp, diopiLeakyReluBackward.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

void leaky_relu(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope) {
  const Scalar slope = scalar_arg(negative_slope, "negative_slope");
  elementwise<kFloating>(
      kernel, ctx, out,
      [slope](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A s = slope.rounded<T>();
        return [s](A x) -> A { return x > A(0) ? x : x * s; };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiLeakyRelu(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, const diopiScalar_t* negative_slope) {
  SIMK_KERNEL(diopiLeakyRelu);
  return guarded(kernel.name, [&] { leaky_relu(kernel, ctx, out, input, negative_slope); });
}

diopiError_t diopiLeakyReluInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                               const diopiScalar_t* negative_slope) {
  SIMK_KERNEL(diopiLeakyReluInp);
  return guarded(kernel.name, [&] { leaky_relu(kernel, ctx, input, input, negative_slope); });
}

diopiError_t diopiLeakyReluBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                    diopiConstTensorHandle_t grad_output,
                                    diopiConstTensorHandle_t input,
                                    const diopiScalar_t* negative_slope, bool input_is_result) {
  SIMK_KERNEL(diopiLeakyReluBackward);
  return guarded(kernel.name, [&] {
    const Scalar slope = scalar_arg(negative_slope, "negative_slope");
    // With input_is_result the input is the forward's output: for a non-negative slope its
    // sign is the input's, so the same test applies (ATen rejects negative slopes there).
    SIMK_CHECK(!input_is_result || slope.as<double>() >= 0,
               "in-place leaky_relu backward needs a non-negative slope");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [slope](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A s = slope.rounded<T>();
          return [s](A g, A x) -> A { return x > A(0) ? g : g * s; };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
