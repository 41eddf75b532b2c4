// The p-norm of a vector of values in double (embedding_renorm_, renorm): p inf / -inf the
// largest / smallest magnitude, 0 the count of nonzeros, NaN propagating.
#ifndef SIM_KERNELS_COMMON_VECTOR_NORM_H_
#define SIM_KERNELS_COMMON_VECTOR_NORM_H_

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace simk {

inline double vector_norm(const std::vector<double>& values, double p) {
  if (std::isinf(p)) {
    double r = p > 0 ? 0.0 : std::numeric_limits<double>::infinity();
    for (const double v : values) {
      const double a = std::fabs(v);
      if (std::isnan(a)) return a;
      r = p > 0 ? std::max(r, a) : std::min(r, a);
    }
    return r;
  }
  double r = 0;
  for (const double v : values) {
    const double a = std::fabs(v);
    r += p == 0 ? (a != 0) : p == 1 ? a : p == 2 ? a * a : std::pow(a, p);
  }
  return p == 0 || p == 1 ? r : p == 2 ? std::sqrt(r) : std::pow(r, 1.0 / p);
}

}  // namespace simk

#endif  // SIM_KERNELS_COMMON_VECTOR_NORM_H_
