// The `floor` family: Element-wise floor (largest integer not greater). DIOPI: diopiFloor,
// diopiFloorInp.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

struct Floor {
  template <class A>
  A operator()(A x) const {
    return std::floor(x);
  }
};

}  // namespace

SIMK_FLOAT_UNARY(Floor, Floor)
