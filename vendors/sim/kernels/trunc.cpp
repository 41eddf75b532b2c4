// The `trunc` family: Element-wise rounding toward zero. DIOPI: diopiTrunc, diopiTruncInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Trunc, kFloating, std::trunc(x))
