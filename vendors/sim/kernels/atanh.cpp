// The `atanh` family: Element-wise inverse hyperbolic tangent (NaN outside [-1, 1]). DIOPI:
// diopiAtanh, diopiAtanhInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Atanh, kFloating, std::atanh(x))
