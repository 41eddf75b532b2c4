// The `isin` family: Whether each element of elements occurs in test_elements (invert negates);
// assume_unique changes nothing in the result. DIOPI extension: diopiIsin.
#include <diopi/prototypes.h>

#include <algorithm>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiIsin(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                       diopiConstTensorHandle_t elements_h, diopiConstTensorHandle_t test_h,
                       bool /*assume_unique*/, bool invert) {
  SIMK_KERNEL(diopiIsin);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View elements = input_view(elements_h, "elements");
    const View test = input_view(test_h, "test_elements");
    check_dtype(out, dtype_bit(diopi_dtype_bool), "out");
    check_dtype(elements, kFloatingAndInt, "elements");
    // Values compare in one dtype; mixed dtypes (ATen promotes them) are left to the CPU.
    SIMK_CHECK(test.dtype == elements.dtype, "test_elements has dtype %s, elements %s",
               dtype_name(test.dtype), dtype_name(elements.dtype));
    SIMK_CHECK(same_shape(out, elements), "out has shape %s, elements %s", out.shape_str().c_str(),
               elements.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      dispatch<kFloatingAndInt>(elements.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const std::vector<T> t = packed<T>(test);
        std::vector<A> set;
        set.reserve(t.size());
        for (const T v : t)
          if (!is_nan(load(v))) set.push_back(load(v));  // NaN equals nothing
        std::sort(set.begin(), set.end());
        const std::vector<T> e = packed<T>(elements);
        std::vector<uint8_t> r(e.size());
        for (size_t i = 0; i < e.size(); ++i) {
          const A x = load(e[i]);
          const bool found = !is_nan(x) && std::binary_search(set.begin(), set.end(), x);
          r[i] = static_cast<uint8_t>(found != invert);
        }
        unpack(out, r);
      });
    });
  });
}
