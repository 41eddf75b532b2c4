// sigmoid / tanh / relu / silu element functors (SIMK_ELEMENT_OP) and float_op, which runs
// one over out and its inputs. Formulas follow ATen's CPU kernels; 16-bit floats compute in float,
// or per operation where ATen's bfloat16 / float16 code rounds after each step (arith.h).
#ifndef SIM_KERNELS_COMMON_ACTIVATION_H_
#define SIM_KERNELS_COMMON_ACTIVATION_H_

#include <cmath>
#include <cstring>

#include "arith.h"
#include "elementwise.h"
#include "scalar.h"

namespace simk {

// Formulas over a value type V (see common/arith.h); ATen 1.13 computes some of them with
// 16-bit operations, which the per-op policies below reproduce.
template <class V>
V sigmoid(V x) {
  return V(1) / (V(1) + vmath::exp(-x));
}

}  // namespace simk

// Element functors over storage type T: load as A, compute in V = Arith<T, Policy>.
#define SIMK_ELEMENT_OP(Name, Policy, Params, Body)       \
  template <class T>                                      \
  struct Name {                                           \
    using A = acc_t<T>;                                   \
    using V = Arith<T, Policy>;                           \
    A operator() Params const { return to_acc<A>(Body); } \
  };

namespace simk {

template <template <class> class F, class... Ins>
void float_op(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out, Ins... ins) {
  elementwise<kFloating>(
      kernel, ctx, out, [](auto tag) { return F<TypeOf<decltype(tag)>>{}; }, ins...);
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_ACTIVATION_H_
