// The `log2` family: Element-wise base-2 logarithm. DIOPI: diopiLog2, diopiLog2Inp.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

struct Log2 {
  template <class A>
  A operator()(A x) const {
    return std::log2(x);
  }
};

}  // namespace

SIMK_FLOAT_UNARY(Log2, Log2)
