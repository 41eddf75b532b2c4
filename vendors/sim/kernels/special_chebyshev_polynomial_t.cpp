// The `special_chebyshev_polynomial_t` family: Chebyshev polynomial of the first kind T_n(x), n
// truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialChebyshevPolynomialT.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ChebyshevPolynomialT, poly::chebyshev<poly::Kind::T>, "n")
