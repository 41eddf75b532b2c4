// The `special_shifted_chebyshev_polynomial_w` family: Shifted Chebyshev polynomial of the fourth
// kind W*_n(x) = W_n(2x - 1), n truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialShiftedChebyshevPolynomialW.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ShiftedChebyshevPolynomialW, poly::shifted_chebyshev<poly::Kind::W>, "n")
