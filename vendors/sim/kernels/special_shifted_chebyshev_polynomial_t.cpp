// The `special_shifted_chebyshev_polynomial_t` family: Shifted Chebyshev polynomial of the first
// kind T*_n(x) = T_n(2x - 1), n truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialShiftedChebyshevPolynomialT.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ShiftedChebyshevPolynomialT, poly::shifted_chebyshev<poly::Kind::T>, "n")
