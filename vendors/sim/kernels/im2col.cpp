// The `im2col` family: extracts the sliding kernel_size blocks of a [N, C, H, W] input as columns
// [N, C * kH * kW, blocks] (unfold). DIOPI: diopiIm2Col.
#include <diopi/prototypes.h>

#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

diopiError_t diopiIm2Col(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                         diopiConstTensorHandle_t input_h, diopiSize_t kernel_size,
                         diopiSize_t dilation, diopiSize_t padding, diopiSize_t stride) {
  SIMK_KERNEL(diopiIm2Col);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(out, kFloating, "out");
    check_dtype(input, kFloating, "input");
    SIMK_CHECK(kernel_size.len == 2 && dilation.len == 2 && padding.len == 2 && stride.len == 2,
               "kernel_size, dilation, padding and stride must have two values each");
    SIMK_CHECK(input.ndim == 3 || input.ndim == 4, "input must be 3-D or 4-D, got %s",
               input.shape_str().c_str());
    const bool batched = input.ndim == 4;
    const int64_t n = batched ? input.sizes[0] : 1, c = input.sizes[batched ? 1 : 0];
    const int64_t h = input.sizes[input.ndim - 2], w = input.sizes[input.ndim - 1];
    const int64_t kh = kernel_size.data[0], kw = kernel_size.data[1];
    const int64_t dh = dilation.data[0], dw = dilation.data[1];
    const int64_t ph = padding.data[0], pw = padding.data[1];
    const int64_t sh = stride.data[0], sw = stride.data[1];
    SIMK_CHECK(kh > 0 && kw > 0 && dh > 0 && dw > 0 && sh > 0 && sw > 0 && ph >= 0 && pw >= 0,
               "kernel_size, dilation and stride must be positive, padding not negative");
    const int64_t span_h = h + 2 * ph - (dh * (kh - 1) + 1);
    const int64_t span_w = w + 2 * pw - (dw * (kw - 1) + 1);
    SIMK_CHECK(span_h >= 0 && span_w >= 0, "the kernel does not fit the padded input %s",
               input.shape_str().c_str());
    const int64_t oh = span_h / sh + 1, ow = span_w / sw + 1;
    View expected = out;
    expected.ndim = 0;
    if (batched) expected.sizes[expected.ndim++] = n;
    expected.sizes[expected.ndim++] = c * kh * kw;
    expected.sizes[expected.ndim++] = oh * ow;
    SIMK_CHECK(same_shape(out, expected), "out has shape %s, expected %s", out.shape_str().c_str(),
               expected.shape_str().c_str());
    launch(kernel, ctx, out, [=] {
      const std::vector<double> x = packed<double>(input);
      std::vector<double> y(static_cast<size_t>(out.numel()), 0.0);
      size_t k = 0;
      for (int64_t b = 0; b < n; ++b)
        for (int64_t ch = 0; ch < c; ++ch)
          for (int64_t i = 0; i < kh; ++i)
            for (int64_t j = 0; j < kw; ++j)
              for (int64_t oi = 0; oi < oh; ++oi)
                for (int64_t oj = 0; oj < ow; ++oj, ++k) {
                  const int64_t r = oi * sh - ph + i * dh, q = oj * sw - pw + j * dw;
                  if (r >= 0 && r < h && q >= 0 && q < w) y[k] = x[((b * c + ch) * h + r) * w + q];
                }
      unpack(out, y);
    });
  });
}
