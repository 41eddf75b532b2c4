// The `bitwise_or` family: Element-wise bitwise OR of integral tensors (logical OR for bool),
// with broadcasting. DIOPI: diopiBitwiseOr, diopiBitwiseOrInp, diopiBitwiseOrScalar,
// diopiBitwiseOrInpScalar.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

SIMK_BITWISE(Or, 1)
