// The `asinh` family: Element-wise inverse hyperbolic sine. DIOPI: diopiAsinh, diopiAsinhInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Asinh, kFloating, std::asinh(x))
