// The `special_erfcx` family: Element-wise scaled complementary error function exp(x ** 2) *
// erfc(x). DIOPI: diopiSpecialErfcx.
#include <diopi/prototypes.h>

#include "common/normal.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(Erfcx, normal::erfcx)
