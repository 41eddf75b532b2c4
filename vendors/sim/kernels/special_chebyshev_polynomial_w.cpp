// The `special_chebyshev_polynomial_w` family: Chebyshev polynomial of the fourth kind W_n(x), n
// truncated to an integer (0 for n < 0), with broadcasting. DIOPI:
// diopiSpecialChebyshevPolynomialW.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(ChebyshevPolynomialW, poly::chebyshev<poly::Kind::W>, "n")
