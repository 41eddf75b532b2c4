// The `special_bessel_j1` family: Element-wise Bessel function of the first kind of order 1. DIOPI:
// diopiSpecialBesselJ1.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(BesselJ1, bessel::j1)
