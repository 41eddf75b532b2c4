// The `special_entr` family: Element-wise entropy term -x * ln(x), 0 at 0, -inf for x < 0.
// DIOPI: diopiSpecialEntr.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>

#include "common/special.h"

using namespace simk;

namespace {

double entr(double x) {
  if (std::isnan(x)) return x;
  if (x < 0) return -std::numeric_limits<double>::infinity();
  if (x == 0) return 0;  // the limit, and +0 for -0 as ATen
  return -x * std::log(x);
}

}  // namespace

SIMK_SPECIAL_UNARY(Entr, entr)
