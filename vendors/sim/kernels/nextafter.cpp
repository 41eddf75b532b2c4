// The `nextafter` family: The next representable value after input toward other, with
// broadcasting. DIOPI: diopiNextafter.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "common/binary.h"
#include "common/elementwise.h"
#include "common/scalar.h"

using namespace simk;

// In the storage type itself: float32 / float64 only (16-bit types step by their own ulp).
diopiError_t diopiNextafter(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                            diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiNextafter);
  return guarded(kernel.name, [&] {
    tensor_tensor<kFloat32Or64>(kernel, ctx, out, input, other,
                                [](auto a, auto b) { return std::nextafter(a, b); });
  });
}
