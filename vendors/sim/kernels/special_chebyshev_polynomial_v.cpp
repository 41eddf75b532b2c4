// The `special_chebyshev_polynomial_v` family: Chebyshev polynomial of the third kind V_n(x), n
// truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialChebyshevPolynomialV.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ChebyshevPolynomialV, poly::chebyshev<poly::Kind::V>, "n")
