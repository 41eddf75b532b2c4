// The `erfc` family: Element-wise complementary error function, 1 - erf(input). DIOPI:
// diopiErfc, diopiErfcInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

SIMK_UNARY(Erfc, kFloating, std::erfc(x))
