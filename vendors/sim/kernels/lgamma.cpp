// The `lgamma` family: Element-wise log of the absolute value of the gamma function. DIOPI:
// diopiLgamma, diopiLgammaInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Lgamma, kFloating, std::lgamma(x))
