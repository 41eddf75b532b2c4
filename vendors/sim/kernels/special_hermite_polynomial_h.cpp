// The `special_hermite_polynomial_h` family: Physicists' Hermite polynomial H_n(x), n truncated to
// an integer (0 for n < 0), with broadcasting. DIOPI: diopiSpecialHermitePolynomialH.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(HermitePolynomialH, poly::hermite_h, "n")
