// The `tan` family: Element-wise tangent. DIOPI: diopiTan, diopiTanInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Tan, kFloating, std::tan(x))
