// The `floor_divide` family: Element-wise division rounded down with broadcasting (div with
// rounding_mode "floor", which torch 1.13 and 2.x floor_divide both are). DIOPI: diopiFloorDivide
// (extension).
#include <diopi/prototypes.h>

#include "common/div_floor.h"
#include "common/elementwise.h"

using namespace simk;

diopiError_t diopiFloorDivide(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFloorDivide);
  return guarded(kernel.name, [&] {
    elementwise<kFloating>(
        kernel, ctx, out,
        [](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          return [](A x, A y) -> A { return div_floor<T>(x, y); };
        },
        In{input, "input"}, In{other, "other"});
  });
}
