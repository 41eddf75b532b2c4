// The `special_chebyshev_polynomial_u` family: Chebyshev polynomial of the second kind U_n(x), n
// truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialChebyshevPolynomialU.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ChebyshevPolynomialU, poly::chebyshev<poly::Kind::U>, "n")
