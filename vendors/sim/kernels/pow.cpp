// The `pow` family: Element-wise power, out = input ** exponent. DIOPI: diopiPow,
// diopiPowTensor, diopiPowScalar.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/arith.h"
#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

// x ** e with ATen's special cases for common exponents (e already rounded to the dtype).
// ATen 1.13 computes the bfloat16 special cases with bfloat16 operations.
template <class T>
acc_t<T> pow_scalar_exponent(acc_t<T> xa, acc_t<T> e) {
  using A = acc_t<T>;
  using V = Arith<T, kPerOpBFloat16>;
  const V x(xa);
  if (e == A(2)) return to_acc<A>(x * x);
  if (e == A(3)) return to_acc<A>(x * x * x);
  if (e == A(0.5)) return std::sqrt(xa);
  if (e == A(-0.5)) return A(1) / std::sqrt(xa);
  if (e == A(-1)) return A(1) / xa;
  if (e == A(-2)) return to_acc<A>(V(1) / (x * x));
  return std::pow(xa, e);
}

}  // namespace

diopiError_t diopiPow(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                      diopiConstTensorHandle_t input, const diopiScalar_t* exponent) {
  SIMK_KERNEL(diopiPow);
  return guarded(kernel.name, [&] {
    const Scalar e = scalar_arg(exponent, "exponent");
    elementwise<kFloating>(
        kernel, ctx, out,
        [e](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A ev = e.rounded<T>();
          return [ev](A x) -> A { return pow_scalar_exponent<T>(x, ev); };
        },
        In{input, "input"});
  });
}

diopiError_t diopiPowTensor(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t exponent) {
  SIMK_KERNEL(diopiPowTensor);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          return [](A x, A e) -> A { return std::pow(x, e); };
        },
        In{input, "input"}, In{exponent, "exponent"});
  });
}

diopiError_t diopiPowScalar(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            const diopiScalar_t* input, diopiConstTensorHandle_t exponent) {
  SIMK_KERNEL(diopiPowScalar);
  return guarded(kernel.name, [&] {
    scalar_tensor<kFloating>(
        kernel, ctx, out, input, exponent, [](auto b, auto e) { return std::pow(b, e); },
        "exponent");
  });
}
