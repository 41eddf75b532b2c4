// The `hardtanh` family: Clamps input into [min_val, max_val] (ReLU6 is hardtanh(0, 6)); the
// gradient passes strictly inside. DIOPI: diopiHardtanh, diopiHardtanhInp,
// diopiHardtanhBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>

#include "common/arith.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

namespace {

template <class A>
bool is_nan(A v) {
  return v != v;
}

void hardtanh(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
              diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
              const diopiScalar_t* max_val) {
  const Scalar lo = scalar_arg(min_val, "min_val"), hi = scalar_arg(max_val, "max_val");
  elementwise<kFloating>(
      kernel, ctx, out,
      [lo, hi](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A l = lo.rounded<T>(), h = hi.rounded<T>();
        return [l, h](A x) -> A { return is_nan(x) ? x : std::min(std::max(x, l), h); };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiHardtanh(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                           const diopiScalar_t* max_val) {
  SIMK_KERNEL(diopiHardtanh);
  return guarded(kernel.name, [&] { hardtanh(kernel, ctx, out, input, min_val, max_val); });
}

diopiError_t diopiHardtanhInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                              const diopiScalar_t* min_val, const diopiScalar_t* max_val) {
  SIMK_KERNEL(diopiHardtanhInp);
  return guarded(kernel.name, [&] { hardtanh(kernel, ctx, input, input, min_val, max_val); });
}

diopiError_t diopiHardtanhBackward(diopiContextHandle_t ctx, diopiTensorHandle_t grad_input,
                                   diopiConstTensorHandle_t grad_output,
                                   diopiConstTensorHandle_t input, const diopiScalar_t* min_val,
                                   const diopiScalar_t* max_val) {
  SIMK_KERNEL(diopiHardtanhBackward);
  return guarded(kernel.name, [&] {
    const Scalar lo = scalar_arg(min_val, "min_val"), hi = scalar_arg(max_val, "max_val");
    elementwise<kFloating>(
        kernel, ctx, grad_input,
        [lo, hi](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          const A l = lo.rounded<T>(), h = hi.rounded<T>();
          return [l, h](A g, A x) -> A { return (x <= l || x >= h) ? A(0) : g; };
        },
        In{grad_output, "grad_output"}, In{input, "input"});
  });
}
