// Bessel-type functions of one real argument for the torch.special families (bessel_j0 / j1 /
// y0 / y1, modified_bessel_i0 / i1 / k0 / k1 and their exponentially scaled forms, i0e / i1 /
// i1e, airy_ai), in double. glibc's j0 / j1 / y0 / y1 and C++17's std::cyl_bessel_i / k / j and
// std::cyl_neumann do the work in the range where they are accurate; libstdc++ throws
// std::domain_error or std::runtime_error outside it (negative x, subnormal x, x >= ~1e10,
// infinities), so every special value is settled before they are called, with small-argument
// series and large-argument asymptotic expansions at the two ends. Edge values follow ATen's CPU
// kernels: NaN at +-inf for J, Y, I and Ai, NaN for x < 0 for Y and K.
#ifndef SIM_KERNELS_COMMON_BESSEL_H_
#define SIM_KERNELS_COMMON_BESSEL_H_

#include <math.h>  // POSIX j0 j1 y0 y1 (not in std::)

#include <cmath>
#include <limits>

namespace simk {
namespace bessel {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kPiB = 3.14159265358979323846;
constexpr double kEulerGamma = 0.57721566490153286061;
// Above this the libstdc++ I / K lose their footing (they throw from ~1e10 on) and the
// asymptotic series below is exact to double precision after a handful of terms.
constexpr double kLargeArg = 700.0;
// Below this I0 = 1, I1 = x / 2, K0 = -(log(x / 2) + gamma), K1 = 1 / x to double precision
// (the next terms are x^2 smaller); libstdc++'s K throws for subnormal x.
constexpr double kSmallArg = 1e-9;

// Hankel's expansions for large x: sum_k (sign)^k a_k(nu) / x^k with
// a_k = prod_{j<=k} (4 nu^2 - (2j - 1)^2) / (k! 8^k); sign -1 gives exp(-x) I_nu(x) sqrt(2 pi x),
// sign +1 gives exp(x) K_nu(x) sqrt(2 x / pi).
inline double hankel_series(double nu, double x, double sign) {
  const double mu = 4 * nu * nu;
  double term = 1, sum = 1;
  for (int k = 1; k < 40; ++k) {
    const double odd = 2.0 * k - 1;
    term *= sign * (mu - odd * odd) / (8.0 * k * x);
    sum += term;
    if (std::abs(term) < 1e-17 * std::abs(sum)) break;
  }
  return sum;
}

// exp(-x) I_nu(x) for x >= 0, nu in {0, 1}.
inline double scaled_i(double nu, double x) {
  if (std::isinf(x)) return 0;
  if (x < kSmallArg) return nu == 0 ? std::exp(-x) : std::exp(-x) * x / 2;
  if (x > kLargeArg) return hankel_series(nu, x, -1) / std::sqrt(2 * kPiB * x);
  return std::exp(-x) * std::cyl_bessel_i(nu, x);
}

// I_nu(x) for finite x >= 0; inf once exp(x) overflows (x > 709.78), as ATen's, although
// I_nu itself stays finite up to ~713.98.
inline double modified_i(double nu, double x) {
  if (x < kSmallArg) return nu == 0 ? 1.0 : x / 2;
  if (x > kLargeArg) return std::exp(x) * scaled_i(nu, x);
  return std::cyl_bessel_i(nu, x);
}

// exp(x) K_nu(x) for x > 0, nu in {0, 1} (and 1/3 for Airy).
inline double scaled_k(double nu, double x) {
  if (std::isinf(x)) return 0;
  if (x > kLargeArg) return hankel_series(nu, x, 1) * std::sqrt(kPiB / (2 * x));
  if (x < kSmallArg && nu == 0) return -(std::log(x / 2) + kEulerGamma);
  if (x < kSmallArg && nu == 1) return 1 / x;
  return std::exp(x) * std::cyl_bessel_k(nu, x);
}

// K_nu(x) for x > 0; underflows to 0 past ~705.
inline double modified_k(double nu, double x) {
  if (std::isinf(x)) return 0;
  if (x > kLargeArg) return std::exp(-x + std::log(scaled_k(nu, x)));
  if (x < kSmallArg) return scaled_k(nu, x);  // exp(x) = 1 there
  return std::cyl_bessel_k(nu, x);
}

// ---- the element functions of the families (x in double, any value)

inline double j0(double x) { return std::isinf(x) ? kNaN : ::j0(x); }
inline double j1(double x) { return std::isinf(x) ? kNaN : ::j1(x); }
inline double y0(double x) {
  if (std::isnan(x) || x < 0 || std::isinf(x)) return kNaN;
  return x == 0 ? -kInf : ::y0(x);
}
inline double y1(double x) {
  if (std::isnan(x) || x < 0 || std::isinf(x)) return kNaN;
  return x == 0 ? -kInf : ::y1(x);
}

// I0 is even, I1 odd.
inline double i0(double x) { return std::isinf(x) ? kNaN : modified_i(0, std::abs(x)); }
inline double i1(double x) {
  if (std::isinf(x) || std::isnan(x)) return kNaN;
  return std::copysign(modified_i(1, std::abs(x)), x);
}
inline double i0e(double x) { return std::isnan(x) ? x : scaled_i(0, std::abs(x)); }
inline double i1e(double x) {
  if (std::isnan(x)) return x;
  return std::copysign(scaled_i(1, std::abs(x)), x);
}

// K's domain: NaN below 0, a pole at 0; f is modified_k or scaled_k.
inline double on_k_domain(double (*f)(double, double), double nu, double x) {
  if (std::isnan(x) || x < 0) return kNaN;
  return x == 0 ? kInf : f(nu, x);
}
inline double k0(double x) { return on_k_domain(modified_k, 0, x); }
inline double k1(double x) { return on_k_domain(modified_k, 1, x); }
inline double k0e(double x) { return on_k_domain(scaled_k, 0, x); }
inline double k1e(double x) { return on_k_domain(scaled_k, 1, x); }

// sin(x) / x; 1 at 0 and its Taylor polynomial where x^4 / 120 is below rounding.
inline double spherical_j0(double x) {
  if (std::isinf(x)) return 0;
  if (std::abs(x) < 1e-4) return 1 - x * x / 6;
  return std::sin(x) / x;
}

// Airy Ai. Near 0 its Maclaurin series Ai(x) = Ai(0) f(x) + Ai'(0) g(x), where
// f = sum 3^k (1/3)_k x^(3k) / (3k)! and g = sum 3^k (2/3)_k x^(3k+1) / (3k+1)!; elsewhere through
// Bessel functions of order 1/3 with zeta = 2/3 |x|^(3/2):
//   x > 0: Ai(x) = sqrt(x / 3) K_1/3(zeta) / pi,
//   x < 0: Ai(x) = sqrt(|x|) / 2 (J_1/3(zeta) - Y_1/3(zeta) / sqrt(3))
// (the second from Ai(-x) = sqrt(x) / 3 (J_1/3 + J_-1/3) with
// J_-1/3 = cos(pi/3) J_1/3 - sin(pi/3) Y_1/3; std::cyl_bessel_j refuses a negative order).
// ATen gives NaN at both infinities.
inline double airy_ai(double x) {
  constexpr double kAi0 = 0.355028053887817239260;    // Ai(0) = 1 / (3^(2/3) Gamma(2/3))
  constexpr double kAip0 = -0.258819403792806798405;  // Ai'(0) = -1 / (3^(1/3) Gamma(1/3))
  if (std::isnan(x) || std::isinf(x)) return kNaN;
  if (x >= -2 && x <= 1) {
    const double x3 = x * x * x;
    double f = 1, g = x, tf = 1, tg = x;
    for (int k = 1; k < 60; ++k) {
      tf *= x3 / ((3.0 * k - 1) * (3.0 * k));
      tg *= x3 / ((3.0 * k) * (3.0 * k + 1));
      f += tf;
      g += tg;
      if (std::abs(tf) + std::abs(tg) < 1e-18 * (std::abs(f) + std::abs(g))) break;
    }
    return kAi0 * f + kAip0 * g;
  }
  const double ax = std::abs(x);
  const double zeta = 2.0 / 3.0 * ax * std::sqrt(ax);
  if (x > 0) {
    if (zeta > kLargeArg)
      return std::exp(-zeta + std::log(std::sqrt(x / 3) / kPiB * scaled_k(1.0 / 3, zeta)));
    return std::sqrt(x / 3) / kPiB * std::cyl_bessel_k(1.0 / 3, zeta);
  }
  return std::sqrt(ax) / 2 *
         (std::cyl_bessel_j(1.0 / 3, zeta) - std::cyl_neumann(1.0 / 3, zeta) / std::sqrt(3.0));
}

}  // namespace bessel
}  // namespace simk

#endif  // SIM_KERNELS_COMMON_BESSEL_H_
