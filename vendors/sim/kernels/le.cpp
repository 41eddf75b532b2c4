// The `le` family: Element-wise less-than-or-equal; the result is bool. DIOPI: diopiLe,
// diopiLeScalar, diopiLeInp, diopiLeInpScalar.
#include <diopi/prototypes.h>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

SIMK_COMPARE_OUT_ENTRY_POINTS(Le, Cmp::kLe)

SIMK_COMPARE_ENTRY_POINTS(Le, Cmp::kLe)
