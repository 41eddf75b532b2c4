// The `bitwise_xor` family: Element-wise bitwise XOR of integral tensors (logical XOR for bool),
// with broadcasting. DIOPI: diopiBitwiseXor, diopiBitwiseXorInp, diopiBitwiseXorScalar,
// diopiBitwiseXorInpScalar.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

SIMK_BITWISE(Xor, 2)
