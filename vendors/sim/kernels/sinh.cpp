// The `sinh` family: Element-wise hyperbolic sine. DIOPI: diopiSinh, diopiSinhInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Sinh, kFloating, std::sinh(x))
