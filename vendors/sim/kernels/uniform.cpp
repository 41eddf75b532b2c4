// The `uniform` family: Fills inout with values drawn uniformly from [from, to) by the device
// generator. DIOPI: diopiUniformInp.
#include <diopi/prototypes.h>

#include <cmath>
#include <cstdint>
#include <utility>
#include <vector>

#include "common/elementwise.h"
#include "common/random.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

// uniform in [from, to): a value rounding up to `to` in a narrow dtype becomes `from`.
template <class T>
void uniform_into(const View& out, Stream s, double from, double to) {
  std::vector<T> v(static_cast<size_t>(out.numel()));
  for (size_t i = 0; i < v.size(); ++i) {
    const double x = from + (to - from) * unit(s.seed, s.first + i);
    T t = convert<T>(x);
    if (!(static_cast<double>(load(t)) < to) && to > from) t = convert<T>(from);
    v[i] = t;
  }
  unpack(out, v);
}

}  // namespace

diopiError_t diopiUniformInp(diopiContextHandle_t ctx, diopiTensorHandle_t inout, double from,
                             double to, diopiGeneratorHandle_t generator) {
  SIMK_KERNEL(diopiUniformInp);
  return guarded(kernel.name, [&] {
    const View out = output_view(inout, "inout");
    check_dtype(out, kFloating, "inout");
    SIMK_CHECK(from <= to,
               "uniform_ expects to return a [from, to) range, but found from=%g > to=%g", from,
               to);
    const Stream s = reserve(generator, static_cast<uint64_t>(out.numel()));
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        uniform_into<T>(out, s, from, to);
      });
    });
  });
}
