// The `special_shifted_chebyshev_polynomial_u` family: Shifted Chebyshev polynomial of the second
// kind U*_n(x) = U_n(2x - 1), n truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialShiftedChebyshevPolynomialU.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ShiftedChebyshevPolynomialU, poly::shifted_chebyshev<poly::Kind::U>, "n")
