// The `ceil` family: Element-wise ceiling (smallest integer not less). DIOPI: diopiCeil,
// diopiCeilInp.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

struct Ceil {
  template <class A>
  A operator()(A x) const {
    return std::ceil(x);
  }
};

}  // namespace

SIMK_FLOAT_UNARY(Ceil, Ceil)
