// The `special_i1` family: Element-wise modified Bessel function of the first kind of order 1 (as
// special_modified_bessel_i1). DIOPI: diopiSpecialI1.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(I1, bessel::i1)
