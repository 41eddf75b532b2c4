// The `polygamma` family: Element-wise n-th derivative of the digamma function (n = 0 is digamma
// itself). DIOPI: diopiPolygamma, diopiPolygammaInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

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
