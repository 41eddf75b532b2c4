// The `special_legendre_polynomial_p` family: Legendre polynomial P_n(x), n truncated to an integer
// (0 for n < 0), with broadcasting. DIOPI: diopiSpecialLegendrePolynomialP.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(LegendrePolynomialP, poly::legendre_p, "n")
