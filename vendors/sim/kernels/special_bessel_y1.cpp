// The `special_bessel_y1` family: Element-wise Bessel function of the second kind of order 1 (NaN
// for x < 0). DIOPI: diopiSpecialBesselY1.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(BesselY1, bessel::y1)
