// The `special_xlog1py` family: input * log1p(other), 0 where input is 0 (unless other is NaN),
// with broadcasting. DIOPI: diopiSpecialXlog1py.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/special.h"

using namespace simk;

namespace {

// As xlogy: a zero input wins over an infinite log (0 at other = -1), not over a NaN other.
double xlog1py(double x, double y) {
  if (std::isnan(y)) return y;
  if (x == 0) return 0;
  return x * std::log1p(y);
}

}  // namespace

SIMK_SPECIAL_BINARY(Xlog1py, xlog1py, "other")
