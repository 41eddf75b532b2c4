// The `logit` family: Element-wise log(p / (1 - p)); with eps (if not negative), p is first
// clamped to [eps, 1 - eps]. DIOPI: diopiLogit, diopiLogitInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

void logit(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
           diopiConstTensorHandle_t input, const double* eps_arg) {
  const double eps = eps_arg ? *eps_arg : -1.0;
  elementwise<kFloating>(
      kernel, ctx, out,
      [eps](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const A lo = load(convert<T>(eps));
        const A hi = load(convert<T>(A(1) - lo));
        return [eps, lo, hi](A x) -> A {
          if (eps >= 0) x = x < lo ? lo : (x > hi ? hi : x);
          return x == A(1) ? std::numeric_limits<A>::infinity() : std::log(x / (A(1) - x));
        };
      },
      In{input, "input"});
}

}  // namespace

diopiError_t diopiLogit(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, const double* eps) {
  SIMK_KERNEL(diopiLogit);
  return guarded(kernel.name, [&] { logit(kernel, ctx, out, input, eps); });
}

diopiError_t diopiLogitInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const double* eps) {
  SIMK_KERNEL(diopiLogitInp);
  return guarded(kernel.name, [&] { logit(kernel, ctx, input, input, eps); });
}
