// The `special_modified_bessel_i0` family: Element-wise modified Bessel function of the first kind
// of order 0. DIOPI: diopiSpecialModifiedBesselI0.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(ModifiedBesselI0, bessel::i0)
