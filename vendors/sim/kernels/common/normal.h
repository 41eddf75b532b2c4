// The scaled complementary error function and the log of the standard normal CDF, in double,
// shared by the torch.special families erfcx, log_ndtr and ndtri (whose Newton steps run on
// log_ndtr). Both are built on std::erfc, accurate to a few ulp over the whole double range.
#ifndef SIM_KERNELS_COMMON_NORMAL_H_
#define SIM_KERNELS_COMMON_NORMAL_H_

#include <cmath>
#include <limits>

namespace simk {
namespace normal {

constexpr double kSqrtPi = 1.77245385090551602730;
constexpr double kSqrt1_2 = 0.70710678118654752440;

// exp(x^2) erfc(x). Directly up to x = 25 (erfc is still normal, and the relative error of
// exp(x^2) is x^2 times rounding, 7e-14 at worst); above, the asymptotic series
// 1 / (x sqrt(pi)) sum_k (-1)^k (2k - 1)!! / (2 x^2)^k, whose terms fall by 1 / 1250 each at
// first and below 1e-17 within a dozen. Overflows to inf for x below about -26.6.
inline double erfcx(double x) {
  if (std::isnan(x)) return x;
  if (x < -26.7) return std::numeric_limits<double>::infinity();
  if (x < 25) return std::exp(x * x) * std::erfc(x);
  if (std::isinf(x)) return 0;
  const double r = 1 / (2 * x * x);
  double term = 1, sum = 1;
  for (int k = 1; k < 30; ++k) {
    term *= -(2.0 * k - 1) * r;
    sum += term;
    if (std::abs(term) < 1e-17) break;
  }
  return sum / (x * kSqrtPi);
}

// log(Phi(x)), Phi(x) = erfc(-x / sqrt 2) / 2. Three forms, each where it keeps its digits:
// the lower tail through erfcx (Phi underflows from x = -38 on, its log does not), the middle
// directly, the upper tail as log1p of the small complement.
inline double log_ndtr(double x) {
  if (std::isnan(x)) return x;
  if (x < -1) return std::log(erfcx(-x * kSqrt1_2) / 2) - 0.5 * x * x;
  if (x <= 0) return std::log(std::erfc(-x * kSqrt1_2) / 2);
  return std::log1p(-std::erfc(x * kSqrt1_2) / 2);
}

}  // namespace normal
}  // namespace simk

#endif  // SIM_KERNELS_COMMON_NORMAL_H_
