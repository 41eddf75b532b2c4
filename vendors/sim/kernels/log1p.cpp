// The `log1p` family: Element-wise log(1 + input), accurate for small input. DIOPI: diopiLog1p,
// diopiLog1pInp.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

struct Log1p {
  template <class A>
  A operator()(A x) const {
    return std::log1p(x);
  }
};

}  // namespace

SIMK_FLOAT_UNARY(Log1p, Log1p)
