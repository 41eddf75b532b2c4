// The `i0` family: Element-wise modified Bessel function of the first kind of order zero. DIOPI:
// diopiI0, diopiI0Inp.
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

double bessel_i0(double x) {
  if (std::isnan(x)) return x;
  return std::cyl_bessel_i(0.0, std::abs(x));
}

}  // namespace

SIMK_UNARY(I0, kFloating, static_cast<decltype(x)>(bessel_i0(static_cast<double>(x))))
