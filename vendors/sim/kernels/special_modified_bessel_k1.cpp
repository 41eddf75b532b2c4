// The `special_modified_bessel_k1` family: Element-wise modified Bessel function of the second kind
// of order 1 (NaN for x < 0). DIOPI: diopiSpecialModifiedBesselK1.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(ModifiedBesselK1, bessel::k1)
