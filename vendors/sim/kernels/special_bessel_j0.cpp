// The `special_bessel_j0` family: Element-wise Bessel function of the first kind of order 0. DIOPI:
// diopiSpecialBesselJ0.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(BesselJ0, bessel::j0)
