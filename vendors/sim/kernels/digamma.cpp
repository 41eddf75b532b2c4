// The `digamma` family: Element-wise digamma function, the derivative of lgamma (-inf at 0, NaN
// at negative integers). DIOPI: diopiDigamma, diopiDigammaInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Digamma, kFloating, static_cast<decltype(x)>(digamma(static_cast<double>(x))))
