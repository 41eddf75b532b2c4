// The `special_shifted_chebyshev_polynomial_v` family: Shifted Chebyshev polynomial of the third
// kind V*_n(x) = V_n(2x - 1), n truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialShiftedChebyshevPolynomialV.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ShiftedChebyshevPolynomialV, poly::shifted_chebyshev<poly::Kind::V>, "n")
