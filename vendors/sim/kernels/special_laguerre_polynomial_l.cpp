// The `special_laguerre_polynomial_l` family: Laguerre polynomial L_n(x), n truncated to an integer
// (0 for n < 0), with broadcasting. DIOPI: diopiSpecialLaguerrePolynomialL.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(LaguerrePolynomialL, poly::laguerre_l, "n")
