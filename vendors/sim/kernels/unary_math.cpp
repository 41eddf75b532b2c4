// Element-wise math of floating tensors beyond unary.cpp / unary_extra.cpp: inverse and
// hyperbolic trigonometry, expm1 exp2 erfc erfinv lgamma digamma i0 sinc, trunc frac round
// (+ decimals), logit, nan_to_num (each with its in-place form), and the bool-valued signbit
// isposinf isneginf. Formulas follow ATen 1.13's CPU kernels; float16 / bfloat16 / float32 are
// computed in float and rounded once, except the special functions that ATen evaluates with
// series of its own (erfinv, digamma, i0), which are computed in double.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

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

// ATen's calc_erfinv: a rational first guess refined by two Newton steps (in double).
double erfinv(double y) {
  static const double a[4] = {0.886226899, -1.645349621, 0.914624893, -0.140543331};
  static const double b[4] = {-2.118377725, 1.442710462, -0.329097515, 0.012229801};
  static const double c[4] = {-1.970840454, -1.624906493, 3.429567803, 1.641345311};
  static const double d[2] = {3.543889200, 1.637067800};
  const double y_abs = std::abs(y);
  if (y_abs > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (y_abs == 1.0) return std::copysign(std::numeric_limits<double>::infinity(), y);
  double x;
  if (y_abs <= 0.7) {
    const double z = y * y;
    const double num = ((a[3] * z + a[2]) * z + a[1]) * z + a[0];
    const double dem = (((b[3] * z + b[2]) * z + b[1]) * z + b[0]) * z + 1.0;
    x = y * num / dem;
  } else {
    const double z = std::sqrt(-std::log((1.0 - y_abs) / 2.0));
    const double num = ((c[3] * z + c[2]) * z + c[1]) * z + c[0];
    const double dem = (d[1] * z + d[0]) * z + 1.0;
    x = std::copysign(num, y) / dem;
  }
  const double k = 2.0 / std::sqrt(kPi);
  x = x - (std::erf(x) - y) / (k * std::exp(-x * x));
  x = x - (std::erf(x) - y) / (k * std::exp(-x * x));
  return x;
}

// ATen's calc_digamma (double): reflection below 0, recurrence up to 10, asymptotic series.
double digamma(double x) {
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

double bessel_i0(double x) {
  if (std::isnan(x)) return x;
  return std::cyl_bessel_i(0.0, std::abs(x));
}

template <class A>
A sinc(A a) {
  if (a == A(0)) return A(1);
  const A product = static_cast<A>(kPi) * a;
  return std::sin(product) / product;
}

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

}  // namespace

// ---------------------------------------------------------------- unary (+ Inp)

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

SIMK_UNARY(Asin, kFloating, std::asin(x))
SIMK_UNARY(Acos, kFloating, std::acos(x))
SIMK_UNARY(Atan, kFloating, std::atan(x))
SIMK_UNARY(Tan, kFloating, std::tan(x))
SIMK_UNARY(Sinh, kFloating, std::sinh(x))
SIMK_UNARY(Cosh, kFloating, std::cosh(x))
SIMK_UNARY(Asinh, kFloating, std::asinh(x))
SIMK_UNARY(Acosh, kFloating, std::acosh(x))
SIMK_UNARY(Atanh, kFloating, std::atanh(x))
SIMK_UNARY(Expm1, kFloating, std::expm1(x))
SIMK_UNARY(Exp2, kFloating, std::exp2(x))
SIMK_UNARY(Erfc, kFloating, std::erfc(x))
SIMK_UNARY(Lgamma, kFloating, std::lgamma(x))
SIMK_UNARY(Erfinv, kFloating, static_cast<decltype(x)>(erfinv(static_cast<double>(x))))
SIMK_UNARY(Digamma, kFloating, static_cast<decltype(x)>(digamma(static_cast<double>(x))))
SIMK_UNARY(I0, kFloating, static_cast<decltype(x)>(bessel_i0(static_cast<double>(x))))
SIMK_UNARY(Sinc, kFloating, sinc(x))
SIMK_UNARY(Trunc, kFloating, std::trunc(x))
SIMK_UNARY(Frac, kFloating, x - std::trunc(x))
SIMK_UNARY(Round, kFloating, std::nearbyint(x))
#undef SIMK_UNARY

// ATen's round.decimals, in the dtype's own arithmetic (float32 / float64 only: ATen rounds
// every operation of a 16-bit type).
diopiError_t diopiRoundDecimals(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                                diopiConstTensorHandle_t input, int64_t decimals) {
  SIMK_KERNEL(diopiRoundDecimals);
  return guarded(kernel.name, [&] {
    const bool neg = decimals < 0;
    const double ten_pow = std::pow(10, static_cast<double>(neg ? -decimals : decimals));
    elementwise<kFloat32Or64>(
        kernel, ctx, out,
        [neg, ten_pow](auto tag) {
          using A = acc_t<TypeOf<decltype(tag)>>;
          const A p = static_cast<A>(ten_pow);
          return [neg, p](A x) -> A {
            return neg ? std::nearbyint(x / p) * p : std::nearbyint(x * p) / p;
          };
        },
        In{input, "input"});
  });
}

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

diopiError_t diopiLogit(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                        diopiConstTensorHandle_t input, const double* eps) {
  SIMK_KERNEL(diopiLogit);
  return guarded(kernel.name, [&] { logit(kernel, ctx, out, input, eps); });
}

diopiError_t diopiLogitInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, const double* eps) {
  SIMK_KERNEL(diopiLogitInp);
  return guarded(kernel.name, [&] { logit(kernel, ctx, input, input, eps); });
}

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

// ---------------------------------------------------------------- bool-valued tests

diopiError_t diopiSignbit(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiSignbit);
  return guarded(kernel.name, [&] {
    predicate(kernel, ctx, out, input, [](double v) { return std::signbit(v); });
  });
}

diopiError_t diopiIsPosInf(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiIsPosInf);
  return guarded(kernel.name, [&] {
    predicate(kernel, ctx, out, input,
              [](double v) { return v == std::numeric_limits<double>::infinity(); });
  });
}

diopiError_t diopiIsNegInf(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                           diopiConstTensorHandle_t input) {
  SIMK_KERNEL(diopiIsNegInf);
  return guarded(kernel.name, [&] {
    predicate(kernel, ctx, out, input,
              [](double v) { return v == -std::numeric_limits<double>::infinity(); });
  });
}

// ---------------------------------------------------------------- polygamma

namespace {

// ATen's trigamma, in the compute type (float for float32 and 16-bit types): at a pole the
// finite value it returns depends on that type's sin(pi * x).
template <class A>
A trigamma(A x) {
  A sign = +1, result = 0;
  if (x < A(0.5)) {
    sign = -1;
    const A sin_pi_x = std::sin(static_cast<A>(kPi) * x);
    result -= (static_cast<A>(kPi) * static_cast<A>(kPi)) / (sin_pi_x * sin_pi_x);
    x = 1 - x;
  }
  for (int i = 0; i < 6; ++i) {
    result += 1 / (x * x);
    x += 1;
  }
  const A ixx = 1 / (x * x);
  result += (1 + 1 / (2 * x) + ixx * (A(1. / 6) - ixx * (A(1. / 30) - ixx * A(1. / 42)))) / x;
  return sign * result;
}

// Hurwitz zeta(x, q) as ATen evaluates it (Cephes: direct sum, then Euler-Maclaurin).
double zeta(double x, double q) {
  const double machep = 1.11022302462515654042E-16;
  static const double A[] = {
      12.0,
      -720.0,
      30240.0,
      -1209600.0,
      47900160.0,
      -1.8924375803183791606e9,
      7.47242496e10,
      -2.950130727918164224e12,
      1.1646782814350067249e14,
      -4.5979787224074726105e15,
      1.8152105401943546773e17,
      -7.1661652561756670113e18,
  };
  if (x == 1) return std::numeric_limits<double>::infinity();
  if (x < 1) return std::numeric_limits<double>::quiet_NaN();
  if (q <= 0) {
    if (q == std::floor(q)) return std::numeric_limits<double>::infinity();
    if (x != std::floor(x)) return std::numeric_limits<double>::quiet_NaN();
  }
  double s = std::pow(q, -x), a = q, b = 0;
  int i = 0;
  while (i < 9 || a <= 9.0) {
    i += 1;
    a += 1;
    b = std::pow(a, -x);
    s += b;
    if (-machep * s < b && b < machep * s) return s;
  }
  const double w = a;
  s += b * w / (x - 1);
  s -= 0.5 * b;
  a = 1;
  double k = 0;
  for (int j = 0; j < 12; ++j) {
    a *= x + k;
    b /= w;
    double t = a * b / A[j];
    s = s + t;
    t = std::fabs(t);
    if (-machep * s < t && t < machep * s) return s;
    k += 1;
    a *= x + k;
    b /= w;
    k += 1;
  }
  return s;
}

// n >= 2 (digamma and trigamma have their own kernels in ATen)
double polygamma_n(int64_t n, double x) {
  const double nd = static_cast<double>(n);
  return ((n % 2) ? 1.0 : -1.0) * std::exp(std::lgamma(nd + 1.0)) * zeta(nd + 1.0, x);
}

void polygamma(const Kernel& kernel, diopiContextHandle_t ctx, diopiTensorHandle_t out,
               diopiConstTensorHandle_t input, int64_t n) {
  SIMK_CHECK(n >= 0, "polygamma(n, x) does not support negative n.");
  float_unary(kernel, ctx, out, input, [n](auto x) -> decltype(x) {
    using A = decltype(x);
    if (n == 0) return static_cast<A>(digamma(static_cast<double>(x)));
    if (n == 1) return trigamma(x);
    return static_cast<A>(polygamma_n(n, static_cast<double>(x)));
  });
}

}  // namespace

diopiError_t diopiPolygamma(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, int64_t n) {
  SIMK_KERNEL(diopiPolygamma);
  return guarded(kernel.name, [&] { polygamma(kernel, ctx, out, input, n); });
}

diopiError_t diopiPolygammaInp(diopiContextHandle_t ctx, diopiTensorHandle_t input, int64_t n) {
  SIMK_KERNEL(diopiPolygammaInp);
  return guarded(kernel.name, [&] { polygamma(kernel, ctx, input, input, n); });
}
