// The `erfinv` family: Element-wise inverse error function (NaN outside [-1, 1]). DIOPI:
// diopiErfinv, diopiErfinvInp.
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

}  // namespace

SIMK_UNARY(Erfinv, kFloating, static_cast<decltype(x)>(erfinv(static_cast<double>(x))))
