// The `asin` family: Element-wise arcsine (NaN outside [-1, 1]). DIOPI: diopiAsin, diopiAsinInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Asin, kFloating, std::asin(x))
