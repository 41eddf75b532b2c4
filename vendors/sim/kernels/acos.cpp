// The `acos` family: Element-wise arccosine (NaN outside [-1, 1]). DIOPI: diopiAcos,
// diopiAcosInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Acos, kFloating, std::acos(x))
