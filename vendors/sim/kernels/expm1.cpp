// The `expm1` family: Element-wise exp(input) - 1, accurate for small input. DIOPI: diopiExpm1,
// diopiExpm1Inp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Expm1, kFloating, std::expm1(x))
