// The `special_ndtri` family: Element-wise inverse of the standard normal cumulative
// distribution function (NaN outside [0, 1]). DIOPI: diopiSpecialNdtri.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>

#include "common/normal.h"
#include "common/special.h"

using namespace simk;

namespace {

// The x < 0 with Phi(x) = p, for 0 < p < 1/2. A start from Abramowitz & Stegun 26.2.23
// (rational in t = sqrt(-2 log p), absolute error below 4.5e-4), then Newton's method on
// g(x) = log Phi(x) - log p: g is increasing and concave, so the iterates converge monotonically,
// and working with logs keeps full relative accuracy deep in the tail (p down to 5e-324), where
// g'(x) = phi(x) / Phi(x) = exp(log phi(x) - log Phi(x)).
double ndtri_lower(double p) {
  constexpr double kLogSqrt2Pi = 0.91893853320467274178;
  const double log_p = std::log(p);
  const double t = std::sqrt(-2 * log_p);
  double x = -(t - (2.515517 + t * (0.802853 + t * 0.010328)) /
                       (1 + t * (1.432788 + t * (0.189269 + t * 0.001308))));
  for (int i = 0; i < 20; ++i) {
    const double log_phi_big = normal::log_ndtr(x);
    const double slope = std::exp(-0.5 * x * x - kLogSqrt2Pi - log_phi_big);
    const double step = (log_phi_big - log_p) / slope;
    x -= step;
    if (std::abs(step) <= 1e-16 * std::abs(x)) break;
  }
  return x;
}

double ndtri(double p) {
  if (std::isnan(p) || p < 0 || p > 1) return std::numeric_limits<double>::quiet_NaN();
  if (p == 0) return -std::numeric_limits<double>::infinity();
  if (p == 1) return std::numeric_limits<double>::infinity();
  if (p == 0.5) return 0;
  // 1 - p is exact for p in [1/2, 1] (Sterbenz), so the upper half mirrors the lower.
  return p < 0.5 ? ndtri_lower(p) : -ndtri_lower(1 - p);
}

}  // namespace

SIMK_SPECIAL_UNARY(Ndtri, ndtri)
