// The `nan_to_num` family: Replaces NaN, +inf and -inf with the given values (NULL; 0, the
// dtype's largest and lowest finite value). DIOPI: diopiNanToNum, diopiNanToNumInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// The largest finite value of storage type T.
template <class T>
double max_finite() {
  if constexpr (std::is_same<T, Half>::value) {
    return 65504.0;
  } else if constexpr (std::is_same<T, BFloat16>::value) {
    return 3.3895313892515355e38;
  } else {
    return static_cast<double>(std::numeric_limits<T>::max());
  }
}

void nan_to_num(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                diopiConstTensorHandle_t input, const double* nan_arg, const double* posinf_arg,
                const double* neginf_arg) {
  const bool has_nan = nan_arg != nullptr, has_pos = posinf_arg != nullptr,
             has_neg = neginf_arg != nullptr;
  const double nan_v = has_nan ? *nan_arg : 0.0, pos_v = has_pos ? *posinf_arg : 0.0,
               neg_v = has_neg ? *neginf_arg : 0.0;
  elementwise<kFloating>(
      kernel, ctx, out,
      [=](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A n = load(convert<T>(nan_v));
        const A p = load(convert<T>(has_pos ? pos_v : max_finite<T>()));
        const A m = load(convert<T>(has_neg ? neg_v : -max_finite<T>()));
        return [n, p, m](A x) -> A {
          if (std::isnan(x)) return n;
          if (x == std::numeric_limits<A>::infinity()) return p;
          if (x == -std::numeric_limits<A>::infinity()) return m;
          return x;
        };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiNanToNum(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input, const double* nan, const double* posinf,
                           const double* neginf) {
  SIMK_KERNEL(diopiNanToNum);
  return guarded(kernel.name, [&] { nan_to_num(kernel, ctx, out, input, nan, posinf, neginf); });
}

diopiError_t diopiNanToNumInp(diopiContextHandle_t ctx, diopiTensorHandle_t input,
                              const double* nan, const double* posinf, const double* neginf) {
  SIMK_KERNEL(diopiNanToNumInp);
  return guarded(kernel.name, [&] { nan_to_num(kernel, ctx, input, input, nan, posinf, neginf); });
}
