// The `erf` family: Element-wise Gauss error function. DIOPI: diopiErf, diopiErfInp.
#include <diopi/prototypes.h>

#include <cmath>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

struct Erf {
  template <class A>
  A operator()(A x) const {
    return std::erf(x);
  }
};

}  // namespace

SIMK_FLOAT_UNARY(Erf, Erf)
