// The `special_i1e` family: Element-wise exp(-|x|) * I1(x), the exponentially scaled modified
// Bessel function I1. DIOPI: diopiSpecialI1e.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(I1e, bessel::i1e)
