// The `special_zeta` family: Hurwitz zeta function sum over k >= 0 of (other + k) ** -input, with
// broadcasting. DIOPI: diopiSpecialZeta.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>

#include "common/special.h"

using namespace simk;

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// B_2j / (2j)! for j = 1..12 (Bernoulli numbers 1/6, -1/30, 1/42, -1/30, 5/66, -691/2730, 7/6,
// -3617/510, 43867/798, -174611/330, 854513/138, -236364091/2730 over the factorials).
constexpr double kBernoulliOverFactorial[12] = {
    8.3333333333333333333e-02,  -1.3888888888888888889e-03, 3.3068783068783068783e-05,
    -8.2671957671957671958e-07, 2.0876756987868098979e-08,  -5.2841901386874931848e-10,
    1.3382536530684678833e-11,  -3.3896802963225828668e-13, 8.5860620562778445641e-15,
    -2.1748686985580618730e-16, 5.5090028283602295151e-18,  -1.3954464685812523341e-19,
};

// zeta(s, q) by Euler-Maclaurin summation: the first N terms directly, then for a = q + N
//   a^(1-s) / (s-1) + a^-s / 2 + sum_j B_2j / (2j)! s (s+1) ... (s+2j-2) a^(-s-2j+1).
// The direct part runs until a >= 9 and N >= 9, and on while a < s / pi so the correction
// terms fall by at least (s / (2 pi a))^2 < 1/4 each; it returns early once its terms no longer
// move the sum (large s, where the first term is all there is) -- only once q + k > 0, from where
// the terms decrease (a negative q's terms grow until q + k passes 0).
double hurwitz(double s, double q) {
  double sum = 0, a = q;
  int k = 0;
  for (; k < 9 || a <= 9 || a < s / 3.14159265358979323846; ++k, a += 1) {
    const double term = std::pow(a, -s);
    sum += term;
    if (k > 0 && a > 0 && std::abs(term) <= 1e-17 * std::abs(sum)) return sum;
  }
  double tail = std::pow(a, 1 - s) / (s - 1) + std::pow(a, -s) / 2;
  double rising = s;                   // s (s+1) ... (s+2j-2)
  double power = std::pow(a, -s - 1);  // a^(-s-2j+1)
  for (int j = 0; j < 12; ++j) {
    const double term = kBernoulliOverFactorial[j] * rising * power;
    tail += term;
    if (std::abs(term) < 1e-17 * std::abs(sum + tail)) break;
    rising *= (s + 2 * j + 1) * (s + 2 * j + 2);
    power /= a * a;
  }
  return sum + tail;
}

// ATen's (Cephes') domain: s = 1 is a pole whatever q, s < 1 is NaN; q a non-positive integer
// (q = -inf included) is a pole, a negative non-integer q needs an integer s; an infinite s gives
// inf for q < 1, 1 at q = 1 and NaN beyond, as does q = +inf (NaN).
double zeta(double s, double q) {
  if (s == 1) return kInf;
  if (s < 1) return kNaN;
  if (std::isnan(q)) return kNaN;
  if (q <= 0) {
    if (q == std::floor(q)) return kInf;
    if (s != std::floor(s)) return kNaN;  // NaN s too
  }
  if (std::isnan(s) || std::isinf(q)) return kNaN;
  if (std::isinf(s)) return q < 1 ? kInf : q == 1 ? 1.0 : kNaN;
  return hurwitz(s, q);
}

}  // namespace

SIMK_SPECIAL_BINARY(Zeta, zeta, "other")
