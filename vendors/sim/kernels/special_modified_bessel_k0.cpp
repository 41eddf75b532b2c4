// The `special_modified_bessel_k0` family: Element-wise modified Bessel function of the second kind
// of order 0 (NaN for x < 0). DIOPI: diopiSpecialModifiedBesselK0.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(ModifiedBesselK0, bessel::k0)
