// The `special_bessel_y0` family: Element-wise Bessel function of the second kind of order 0 (NaN
// for x < 0). DIOPI: diopiSpecialBesselY0.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(BesselY0, bessel::y0)
