// The `max_unpool2d` family: Inverse of 2-D max pooling, input's values written at the flat
// (oH * oW) positions indices give in each plane of a zero [.., oH, oW] output. DIOPI extension:
// diopiMaxUnpool2d.
#include <diopi/prototypes.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiMaxUnpool2d(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                              diopiConstTensorHandle_t input_h, diopiConstTensorHandle_t indices_h,
                              diopiSize_t output_size) {
  SIMK_KERNEL(diopiMaxUnpool2d);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    const View indices = input_view(indices_h, "indices");
    check_dtype(out, kFloating, "out");
    check_dtype(indices, dtype_bit(diopi_dtype_int64), "indices");
    SIMK_CHECK(input.ndim == 3 || input.ndim == 4, "input must be 3-D or 4-D, got %s",
               input.shape_str().c_str());
    SIMK_CHECK(same_shape(indices, input), "indices has shape %s, input %s",
               indices.shape_str().c_str(), input.shape_str().c_str());
    SIMK_CHECK(output_size.len == 2, "output_size must have 2 elements, got %lld",
               static_cast<long long>(output_size.len));
    View expected = input;
    expected.sizes[input.ndim - 2] = output_size.data[0];
    expected.sizes[input.ndim - 1] = output_size.data[1];
    SIMK_CHECK(same_shape(out, expected) && out.dtype == input.dtype,
               "out (%s) must be %s of input's dtype", out.shape_str().c_str(),
               expected.shape_str().c_str());
    const int64_t plane_out = output_size.data[0] * output_size.data[1];
    const int64_t plane_in = input.sizes[input.ndim - 2] * input.sizes[input.ndim - 1];
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(out.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> x = packed<T>(input);
        const std::vector<int64_t> idx = packed<int64_t>(indices);
        std::vector<T> y(static_cast<size_t>(out.numel()), T(0.0));
        const int64_t planes = plane_in == 0 ? 0 : static_cast<int64_t>(x.size()) / plane_in;
        for (int64_t p = 0; p < planes; ++p)
          for (int64_t i = 0; i < plane_in; ++i) {  // in order: the last of repeated indices wins
            const int64_t k = idx[p * plane_in + i];
            if (k < 0 || k >= plane_out)
              throw std::runtime_error("max_unpool2d: found an invalid max index " +
                                       std::to_string(k) + " (output volumes are of size " +
                                       std::to_string(plane_out) + ")");
            y[p * plane_out + k] = x[p * plane_in + i];
          }
        unpack(out, y);
      });
    });
  });
}
