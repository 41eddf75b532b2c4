// The `frac` family: Element-wise fractional part, input - trunc(input). DIOPI: diopiFrac,
// diopiFracInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Frac, kFloating, x - std::trunc(x))
