// The `special_modified_bessel_i1` family: Element-wise modified Bessel function of the first kind
// of order 1. DIOPI: diopiSpecialModifiedBesselI1.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(ModifiedBesselI1, bessel::i1)
