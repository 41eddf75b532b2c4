// The `sinc` family: Element-wise normalized sinc, sin(pi x) / (pi x), 1 at 0. DIOPI: diopiSinc,
// diopiSincInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <limits>
#include <vector>

#include "common/elementwise.h"
#include "common/scalar.h"
#include "common/shape_ops.h"
#include "common/unary.h"

using namespace simk;

namespace {

template <class A>
A sinc(A a) {
  if (a == A(0)) return A(1);
  const A product = static_cast<A>(kPi) * a;
  return std::sin(product) / product;
}

}  // namespace

SIMK_UNARY(Sinc, kFloating, sinc(x))
