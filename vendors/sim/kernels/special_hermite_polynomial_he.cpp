// The `special_hermite_polynomial_he` family: Probabilists' Hermite polynomial He_n(x), n truncated
// to an integer (0 for n < 0), with broadcasting. DIOPI: diopiSpecialHermitePolynomialHe.
#include <diopi/prototypes.h>

#include "common/orthogonal_poly.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_BINARY(HermitePolynomialHe, poly::hermite_he, "n")
