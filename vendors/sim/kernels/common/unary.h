// Unary element-wise kernels: unary<Set, F> (a functor template over the compute type),
// float_unary (a callable, floating dtypes by default) and the SIMK_FLOAT_UNARY / SIMK_UNARY
// entry-point macros (out= and in-place forms); digamma and signbit-like predicates shared by
// several families. Computed in out's dtype (float for 16-bit floats) and rounded once.
#ifndef SIM_KERNELS_COMMON_UNARY_H_
#define SIM_KERNELS_COMMON_UNARY_H_

#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "elementwise.h"
#include "scalar.h"
#include "shape_ops.h"

namespace simk {

// Runs the element functor F (a class template over the compute type) over input -> out.
template <uint32_t Set, template <class> class F>
void unary(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
           diopiConstTensorHandle_t input) {
  elementwise<Set>(
      kernel, ctx, out, [](auto tag) { return F<acc_t<TypeOf<decltype(tag)>>>{}; },
      In{input, "input"});
}

}  // namespace simk

#define SIMK_FLOAT_UNARY(Name, Op)                                                      \
  diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,           \
                           diopiConstTensorHandle_t input) {                            \
    SIMK_KERNEL(diopi##Name);                                                           \
    return guarded(kernel.name, [&] { float_unary(kernel, ctx, out, input, Op{}); });   \
  }                                                                                     \
  diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {  \
    SIMK_KERNEL(diopi##Name##Inp);                                                      \
    return guarded(kernel.name, [&] { float_unary(kernel, ctx, input, input, Op{}); }); \
  }

namespace simk {

constexpr double kPi = 3.14159265358979323846;

// out = f(input) for the dtypes in Set; `out` may be `input` (in-place forms).
template <uint32_t Set = kFloating, class F>
void float_unary(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
                 diopiConstTensorHandle_t input, F f) {
  elementwise<Set>(
      kernel, ctx, out,
      [f](auto tag) {
        using A = acc_t<TypeOf<decltype(tag)>>;
        return [f](A x) -> A { return static_cast<A>(f(x)); };
      },
      In{input, "input"});
}

// ATen's calc_digamma (double): reflection below 0, recurrence up to 10, asymptotic series.
inline double digamma(double x) {
  static const double kPsi10 = 2.25175258906672110764;
  if (x == 0) return std::copysign(std::numeric_limits<double>::infinity(), -x);
  if (x < 0) {
    if (x == std::trunc(x)) return std::numeric_limits<double>::quiet_NaN();
    double q;
    const double r = std::modf(x, &q);
    return digamma(1 - x) - kPi / std::tan(kPi * r);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + kPsi10;
  static const double A[] = {
      8.33333333333333333333E-2,  -2.10927960927960927961E-2, 7.57575757575757575758E-3,
      -4.16666666666666666667E-3, 3.96825396825396825397E-3,  -8.33333333333333333333E-3,
      8.33333333333333333333E-2,
  };
  double y = 0;
  if (x < 1.0e17) {
    const double z = 1.0 / (x * x);
    double p = A[0];
    for (int i = 1; i <= 6; ++i) p = p * z + A[i];
    y = z * p;
  }
  return result + std::log(x) - (0.5 / x) - y;
}

// Bool-valued tests of each element; out has input's shape.
template <class Pred>
void predicate(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
               diopiConstTensorHandle_t input_h, Pred pred) {
  const View out = output_view(out_h, "out");
  const View input = input_view(input_h, "input");
  check_dtype(input, kAllTypes, "input");
  check_dtype(out, dtype_bit(diopi_dtype_bool), "out");
  SIMK_CHECK(same_shape(out, input), "out has shape %s, input %s", out.shape_str().c_str(),
             input.shape_str().c_str());
  launch(kernel, ctx, out, [=] {
    std::vector<double> x = packed<double>(input);  // exact for every float and small int
    for (double& v : x) v = pred(v) ? 1.0 : 0.0;
    unpack(out, x);
  });
}

}  // namespace simk

#define SIMK_UNARY(Name, Set, Expr)                                                            \
  diopiError_t diopi##Name(diopiContextHandle_t ctx, diopiTensorHandle_t out,                  \
                           diopiConstTensorHandle_t input) {                                   \
    SIMK_KERNEL(diopi##Name);                                                                  \
    return guarded(kernel.name, [&] {                                                          \
      float_unary<Set>(kernel, ctx, out, input, [](auto x) -> decltype(x) { return Expr; });   \
    });                                                                                        \
  }                                                                                            \
  diopiError_t diopi##Name##Inp(diopiContextHandle_t ctx, diopiTensorHandle_t input) {         \
    SIMK_KERNEL(diopi##Name##Inp);                                                             \
    return guarded(kernel.name, [&] {                                                          \
      float_unary<Set>(kernel, ctx, input, input, [](auto x) -> decltype(x) { return Expr; }); \
    });                                                                                        \
  }

#endif  // SIM_KERNELS_COMMON_UNARY_H_
