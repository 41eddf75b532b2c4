// The `special_spherical_bessel_j0` family: Element-wise spherical Bessel function of the first
// kind of order 0, sin(x) / x. DIOPI: diopiSpecialSphericalBesselJ0.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(SphericalBesselJ0, bessel::spherical_j0)
