// The `lerp` family: Linear interpolation, out = input + weight * (end - input), with
// broadcasting. DIOPI: diopiLerpScalar, diopiLerpTensor.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

template <class A>
A lerp(A self, A end, A weight) {
  return std::abs(weight) < A(0.5) ? self + weight * (end - self)
                                   : end - (end - self) * (A(1) - weight);
}

}  // namespace

diopiError_t diopiLerpScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             const diopiScalar_t* weight) {
  SIMK_KERNEL(diopiLerpScalar);
  return guarded(kernel.name, [&] {
    const Scalar w = scalar_arg(weight, "weight");
    elementwise<kFloating>(
        kernel, ctx, out,
        [w](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A wv = w.as<A>();
          return [wv](A x, A e) -> A { return lerp(x, e, wv); };
        },
        In{input, "input"}, In{end, "end"});
  });
}

diopiError_t diopiLerpTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                             diopiConstTensorHandle_t input, diopiConstTensorHandle_t end,
                             diopiConstTensorHandle_t weight) {
  SIMK_KERNEL(diopiLerpTensor);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A e, A w) -> A { return lerp(x, e, w); };
        },
        In{input, "input"}, In{end, "end"}, In{weight, "weight"});
  });
}
