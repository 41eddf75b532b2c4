// The `acosh` family: Element-wise inverse hyperbolic cosine (NaN below 1). DIOPI: diopiAcosh,
// diopiAcoshInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Acosh, kFloating, std::acosh(x))
