// The `upsample_nearest2d` family: Nearest-neighbour 2-D upsampling of [N, C, H, W] to size [oH,
// oW] (source index floor(dst * in / out)), and its backward (sums each output gradient into its
// source). DIOPI: diopiUpsampleNearest, diopiUpsampleNearestBackward.
#include <diopi/prototypes.h>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "common/elementwise.h"
#include "common/shape_ops.h"

using namespace simk;

namespace {

int64_t nearest_index(int64_t dst, int64_t in, int64_t out) {
  if (out == in) return dst;
  if (out == 2 * in) return dst >> 1;
  const float scale = static_cast<float>(in) / static_cast<float>(out);
  const int64_t i = static_cast<int64_t>(std::floor(static_cast<float>(dst) * scale));
  return std::min(i, in - 1);
}

std::vector<int64_t> nearest_indices(int64_t in, int64_t out) {
  std::vector<int64_t> idx(static_cast<size_t>(out));
  for (int64_t o = 0; o < out; ++o) idx[o] = nearest_index(o, in, out);
  return idx;
}

// Checks that `big` is [..., oH, oW] for `small` [..., H, W] and `size` [oH, oW].
void check_upsample_shapes(const View& small, const View& big, diopiSize_t size,
                           const char* small_name, const char* big_name) {
  SIMK_CHECK(size.data != nullptr && size.len == 2,
             "the output size must have 2 elements, got %lld", static_cast<long long>(size.len));
  SIMK_CHECK(small.ndim == 4, "%s must be 4-D [N, C, H, W], got %s", small_name,
             small.shape_str().c_str());
  SIMK_CHECK(big.ndim == 4 && big.sizes[0] == small.sizes[0] && big.sizes[1] == small.sizes[1] &&
                 big.sizes[2] == size.data[0] && big.sizes[3] == size.data[1],
             "%s has shape %s; %s %s upsampled to [%lld, %lld] gives [%lld, %lld, %lld, %lld]",
             big_name, big.shape_str().c_str(), small_name, small.shape_str().c_str(),
             static_cast<long long>(size.data[0]), static_cast<long long>(size.data[1]),
             static_cast<long long>(small.sizes[0]), static_cast<long long>(small.sizes[1]),
             static_cast<long long>(size.data[0]), static_cast<long long>(size.data[1]));
  SIMK_CHECK(size.data[0] > 0 && size.data[1] > 0 && small.sizes[2] > 0 && small.sizes[3] > 0,
             "input and output sizes must be positive");
}

}  // namespace

diopiError_t diopiUpsampleNearest(diopiContextHandle_t ctx, diopiTensorHandle_t out_h,
                                  diopiConstTensorHandle_t input_h, diopiSize_t size) {
  SIMK_KERNEL(diopiUpsampleNearest);
  return guarded(kernel.name, [&] {
    const View out = output_view(out_h, "out");
    const View input = input_view(input_h, "input");
    check_dtype(input, kFloating, "input");
    check_dtype(out, kFloating, "out");
    check_upsample_shapes(input, out, size, "input", "out");
    launch(kernel, ctx, out, [=] {
      dispatch<kFloating>(input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        const std::vector<T> x = packed<T>(input);
        const int64_t planes = input.sizes[0] * input.sizes[1];
        const int64_t ih = input.sizes[2], iw = input.sizes[3];
        const int64_t oh = out.sizes[2], ow = out.sizes[3];
        const std::vector<int64_t> rows = nearest_indices(ih, oh), cols = nearest_indices(iw, ow);
        std::vector<T> y(static_cast<size_t>(planes * oh * ow));
        for (int64_t p = 0; p < planes; ++p)
          for (int64_t r = 0; r < oh; ++r)
            for (int64_t c = 0; c < ow; ++c)
              y[(p * oh + r) * ow + c] = x[(p * ih + rows[r]) * iw + cols[c]];
        unpack(out, y);
      });
    });
  });
}

diopiError_t diopiUpsampleNearestBackward(diopiContextHandle_t ctx,
                                          diopiTensorHandle_t grad_input_h,
                                          diopiConstTensorHandle_t grad_output_h,
                                          diopiSize_t out_size, diopiSize_t in_size) {
  SIMK_KERNEL(diopiUpsampleNearestBackward);
  return guarded(kernel.name, [&] {
    const View grad_input = output_view(grad_input_h, "grad_input");
    const View grad_output = input_view(grad_output_h, "grad_output");
    check_dtype(grad_input, kFloating, "grad_input");
    check_dtype(grad_output, kFloating, "grad_output");
    SIMK_CHECK(in_size.data != nullptr && in_size.len == grad_input.ndim,
               "in_size must give grad_input's %d sizes", grad_input.ndim);
    for (int d = 0; d < grad_input.ndim; ++d)
      SIMK_CHECK(in_size.data[d] == grad_input.sizes[d], "grad_input has shape %s, in_size differs",
                 grad_input.shape_str().c_str());
    check_upsample_shapes(grad_input, grad_output, out_size, "grad_input", "grad_output");
    launch(kernel, ctx, grad_input, [=] {
      dispatch<kFloating>(grad_input.dtype, [&](auto tag) {
        using T = TypeOf<decltype(tag)>;
        using A = acc_t<T>;
        const std::vector<A> g = packed<A>(grad_output);
        const int64_t planes = grad_input.sizes[0] * grad_input.sizes[1];
        const int64_t ih = grad_input.sizes[2], iw = grad_input.sizes[3];
        const int64_t oh = grad_output.sizes[2], ow = grad_output.sizes[3];
        const std::vector<int64_t> rows = nearest_indices(ih, oh), cols = nearest_indices(iw, ow);
        // bfloat16 sums round after every addition (ATen 1.13 adds in the tensor's dtype);
        // float16, which CPU torch 1.13 lacks here, is summed in float and rounded once.
        constexpr bool kRoundEachAdd = std::is_same<T, BFloat16>::value;
        std::vector<A> acc(static_cast<size_t>(planes * ih * iw), A(0));
        for (int64_t p = 0; p < planes; ++p)
          for (int64_t r = 0; r < oh; ++r)
            for (int64_t c = 0; c < ow; ++c) {
              A& slot = acc[(p * ih + rows[r]) * iw + cols[c]];
              slot = slot + g[(p * oh + r) * ow + c];
              if constexpr (kRoundEachAdd) slot = load(convert<T>(slot));
            }
        unpack(grad_input, acc);
      });
    });
  });
}
