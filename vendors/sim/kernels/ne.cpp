// The `ne` family: Element-wise inequality; the result is bool. DIOPI: diopiNe, diopiNeScalar,
// diopiNeInp, diopiNeInpScalar.
#include <diopi/prototypes.h>

#include "common/compare.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

SIMK_COMPARE_OUT_ENTRY_POINTS(Ne, Cmp::kNe)

SIMK_COMPARE_ENTRY_POINTS(Ne, Cmp::kNe)
