// The `ge` family: Element-wise greater-than-or-equal; the result is bool. DIOPI: diopiGe,
// diopiGeScalar, diopiGeInp, diopiGeInpScalar.
#include <diopi/prototypes.h>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

SIMK_COMPARE_OUT_ENTRY_POINTS(Ge, Cmp::kGe)

SIMK_COMPARE_ENTRY_POINTS(Ge, Cmp::kGe)
