// The `bitwise_and` family: Element-wise bitwise AND of integral tensors (logical AND for bool),
// with broadcasting. DIOPI: diopiBitwiseAnd, diopiBitwiseAndInp, diopiBitwiseAndScalar,
// diopiBitwiseAndInpScalar.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

SIMK_BITWISE(And, 0)
