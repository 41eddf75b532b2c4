// The `special_scaled_modified_bessel_k1` family: Element-wise exp(x) * K1(x), the exponentially
// scaled modified Bessel function K1. DIOPI: diopiSpecialScaledModifiedBesselK1.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(ScaledModifiedBesselK1, bessel::k1e)
