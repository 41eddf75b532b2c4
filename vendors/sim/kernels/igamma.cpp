// The `igamma` family: The regularized lower (igamma) and upper (igammac) incomplete gamma
// functions P(input, other) and Q(input, other) with broadcasting. DIOPI: diopiIgamma,
// diopiIgammac (extensions).
//
// Computed in double (rounded once to out's dtype) with Cephes' series and continued fraction
// as SciPy and ATen pick them, and ATen's boundary values. ATen also has an asymptotic series
// for a ~ x with a > 20; the series and the fraction converge there too (within their 2000
// terms for the moderate a tensors hold), and double leaves ample margin for float32.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>

#include "common/special.h"

using namespace simk;

namespace {

constexpr int kMaxIter = 2000;
constexpr double kEps = std::numeric_limits<double>::epsilon() / 2;  // Cephes' MACHEP
constexpr double kBig = 4.503599627370496e15;
constexpr double kBigInv = 2.22044604925031308085e-16;
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// x^a e^-x / Gamma(a), through logs (its terms are large for large a).
double igam_fac(double a, double x) { return std::exp(a * std::log(x) - x - std::lgamma(a)); }

// P(a, x) by its power series: converges for any x, fast for x < a + 1.
double igam_series(double a, double x) {
  const double ax = igam_fac(a, x);
  if (ax == 0.0) return 0.0;
  double r = a, c = 1.0, ans = 1.0;
  for (int i = 0; i < kMaxIter; ++i) {
    r += 1.0;
    c *= x / r;
    ans += c;
    if (c <= kEps * ans) break;
  }
  return ans * ax / a;
}

// Q(a, x) for small x (x <= 1.1), by the series of the lower function's complement.
double igamc_series(double a, double x) {
  double fac = 1, sum = 0;
  for (int n = 1; n < kMaxIter; ++n) {
    fac *= -x / n;
    const double term = fac / (a + n);
    sum += term;
    if (std::abs(term) <= kEps * std::abs(sum)) break;
  }
  const double logx = std::log(x);
  return -std::expm1(a * logx - std::lgamma(1.0 + a)) - std::exp(a * logx - std::lgamma(a)) * sum;
}

// Q(a, x) by its continued fraction: for x > 1.1 and x >= a.
double igamc_fraction(double a, double x) {
  const double ax = igam_fac(a, x);
  if (ax == 0.0) return 0.0;
  double y = 1.0 - a, z = x + y + 1.0, c = 0.0;
  double pkm2 = 1.0, qkm2 = x, pkm1 = x + 1.0, qkm1 = z * x;
  double ans = pkm1 / qkm1;
  for (int i = 0; i < kMaxIter; ++i) {
    c += 1.0;
    y += 1.0;
    z += 2.0;
    const double yc = y * c;
    const double pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc;
    double t = 1.0;
    if (qk != 0) {
      const double r = pk / qk;
      t = std::abs((ans - r) / r);
      ans = r;
    }
    pkm2 = pkm1;
    pkm1 = pk;
    qkm2 = qkm1;
    qkm1 = qk;
    if (std::abs(pk) > kBig) {
      pkm2 *= kBigInv;
      pkm1 *= kBigInv;
      qkm2 *= kBigInv;
      qkm1 *= kBigInv;
    }
    if (t <= kEps) break;
  }
  return ans * ax;
}

double igammac(double a, double x);

// ATen's calc_igamma: NaN for a negative argument or a = x = 0, then the limits.
double igamma(double a, double x) {
  if (std::isnan(a) || std::isnan(x)) return kNaN;
  if (x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 1.0 : kNaN;
  if (x == 0) return 0.0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 0.0;
  if (std::isinf(x)) return 1.0;
  if (x > 1.0 && x > a) return 1.0 - igammac(a, x);
  return igam_series(a, x);
}

// ATen's calc_igammac, with the same limits and the same choice of method by region.
double igammac(double a, double x) {
  if (std::isnan(a) || std::isnan(x)) return kNaN;
  if (x < 0 || a < 0) return kNaN;
  if (a == 0) return x > 0 ? 0.0 : kNaN;
  if (x == 0) return 1.0;
  if (std::isinf(a)) return std::isinf(x) ? kNaN : 1.0;
  if (std::isinf(x)) return 0.0;
  if (x > 1.1) return x < a ? 1.0 - igam_series(a, x) : igamc_fraction(a, x);
  const bool lower = x <= 0.5 ? -0.4 / std::log(x) < a : x * 1.1 < a;
  return lower ? 1.0 - igam_series(a, x) : igamc_series(a, x);
}

}  // namespace

diopiError_t diopiIgamma(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                         diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiIgamma);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other, [](auto a, auto x) {
      return igamma(static_cast<double>(a), static_cast<double>(x));
    });
  });
}

diopiError_t diopiIgammac(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                          diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiIgammac);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloating>(kernel, ctx, out, input, other, [](auto a, auto x) {
      return igammac(static_cast<double>(a), static_cast<double>(x));
    });
  });
}
