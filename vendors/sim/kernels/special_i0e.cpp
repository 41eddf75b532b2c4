// The `special_i0e` family: Element-wise exp(-|x|) * I0(x), the exponentially scaled modified
// Bessel function I0. DIOPI: diopiSpecialI0e.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(I0e, bessel::i0e)
