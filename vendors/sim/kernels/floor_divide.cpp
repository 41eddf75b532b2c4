// The `floor_divide` family: Element-wise division rounded down with broadcasting (div with
// rounding_mode "floor", which torch 1.13 and 2.x floor_divide both are); an integer division by
// zero is an error. DIOPI: diopiFloorDivide (extension).
#include <diopi/prototypes.h>

#include <type_traits>

#include "common/div_floor.h"
#include "common/elementwise.h"

using namespace simk;

diopiError_t diopiFloorDivide(diopiContextHandle_t ctx, diopiTensorHandle_t out,
                              diopiConstTensorHandle_t input, diopiConstTensorHandle_t other) {
  SIMK_KERNEL(diopiFloorDivide);
  return guarded(kernel.name, [&] {
    elementwise<kFloating | kIntegral>(
        kernel, ctx, out,
        [](auto tag) {
          using T = TypeOf<decltype(tag)>;
          using A = acc_t<T>;
          return [](A x, A y) -> A {
            if constexpr (std::is_integral<A>::value) {
              // ATen's div_floor_integer: truncation, one less where the signs differ and a
              // remainder is left. A zero divisor is found in the data, on the stream (as
              // ATen raises ZeroDivisionError from inside its loop).
              SIMK_CHECK(y != 0, "ZeroDivisionError");
              // lowest / -1 traps in hardware: negate with wrap-around, as the result wraps
              if (y == -1) return static_cast<A>(0 - static_cast<std::make_unsigned_t<A>>(x));
              const A q = x / y, r = x % y;
              return r != 0 && ((x < 0) != (y < 0)) ? q - 1 : q;
            } else {
              return div_floor<T>(x, y);
            }
          };
        },
        In{input, "input"}, In{other, "other"});
  });
}
