// The `special_airy_ai` family: Element-wise Airy function Ai(x) (NaN at +-inf, as ATen). DIOPI:
// diopiSpecialAiryAi.
#include <diopi/prototypes.h>

#include "common/bessel.h"
#include "common/special.h"

using namespace simk;

SIMK_SPECIAL_UNARY(AiryAi, bessel::airy_ai)
