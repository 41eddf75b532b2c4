// The `cosh` family: Element-wise hyperbolic cosine. DIOPI: diopiCosh, diopiCoshInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Cosh, kFloating, std::cosh(x))
