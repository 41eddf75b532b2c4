// The `log10` family: Element-wise base-10 logarithm. DIOPI: diopiLog10, diopiLog10Inp.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

struct Log10 {
  template <class A>
  A operator()(A x) const {
    return std::log10(x);
  }
};

}  // namespace

SIMK_FLOAT_UNARY(Log10, Log10)
