// The `i0` family: Element-wise modified Bessel function of the first kind of order zero. DIOPI:
// diopiI0, diopiI0Inp.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

// ATen's i0 and special_modified_bessel_i0 agree everywhere (NaN at +-inf, inf past 709.78);
// common/bessel.h keeps std::cyl_bessel_i inside its range (it throws from |x| ~ 1e10 on).
SIMK_UNARY(I0, kFloating, static_cast<decltype(x)>(bessel::i0(static_cast<double>(x))))
