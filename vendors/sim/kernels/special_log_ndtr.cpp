// The `special_log_ndtr` family: Element-wise log of the standard normal cumulative distribution
// function. DIOPI: diopiSpecialLogNdtr.
#include <diopi/prototypes.h>

#include "common/normal.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(LogNdtr, normal::log_ndtr)
