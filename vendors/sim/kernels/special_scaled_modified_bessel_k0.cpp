// The `special_scaled_modified_bessel_k0` family: Element-wise exp(x) * K0(x), the exponentially
// scaled modified Bessel function K0. DIOPI: diopiSpecialScaledModifiedBesselK0.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(ScaledModifiedBesselK0, bessel::k0e)
