// The `exp2` family: Element-wise base-2 exponential, 2 ** input. DIOPI: diopiExp2,
// diopiExp2Inp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Exp2, kFloating, std::exp2(x))
