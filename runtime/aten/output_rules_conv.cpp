// Output rules of the layers a CNN or a transformer is built from: normalization statistics,
// convolution, 2-D pooling (the nn families added later for coverage are in
// output_rules_nn.cpp). Each gives the shape and dtype a wrapper allocates for an output before
// the kernel runs, and raises, naming the op, on a call ATen would refuse.
#include "opweave/output_rules.h"

namespace opweave {
namespace rules {

// ---- normalization ----

OutMeta layer_norm_stats(const at::Tensor& input, at::IntArrayRef normalized_shape) {
  const int64_t axis = input.dim() - static_cast<int64_t>(normalized_shape.size());
  TORCH_CHECK(!normalized_shape.empty() && axis >= 0, "layer_norm: normalized_shape ",
              normalized_shape, " does not fit input of shape ", input.sizes());
  for (size_t i = 0; i < normalized_shape.size(); ++i) {
    TORCH_CHECK(input.size(axis + static_cast<int64_t>(i)) == normalized_shape[i],
                "layer_norm: normalized_shape ", normalized_shape,
                " does not match the trailing dims of input of shape ", input.sizes());
  }
  c10::SmallVector<int64_t, 6> sizes;
  for (int64_t i = 0; i < input.dim(); ++i) sizes.push_back(i < axis ? input.size(i) : 1);
  return OutMeta{sizes, input.scalar_type()};
}

OutMeta group_norm_stats(const at::Tensor& input, int64_t group) {
  TORCH_CHECK(input.dim() >= 2, "group_norm: input must have at least 2 dims, got ", input.dim(),
              "-D");
  return OutMeta{{input.size(0), group}, input.scalar_type()};
}

OutMeta batch_norm_stats(const at::Tensor& input) {
  TORCH_CHECK(input.dim() >= 2, "batch_norm: input must have at least 2 dims, got ", input.dim(),
              "-D");
  return OutMeta{{input.size(1)}, input.scalar_type()};
}

OutMeta batch_norm_saved(const at::Tensor& input, bool training) {
  OutMeta stats = batch_norm_stats(input);
  TORCH_CHECK(input.numel() > 0 || input.size(1) == 0,
              "native_batch_norm: input tensor must have at least one element, but got "
              "input_sizes = ",
              input.sizes());
  if (!training) stats.sizes = {0};
  return stats;
}

// ---- convolution and pooling ----

namespace {

int64_t at_or_last(at::IntArrayRef v, size_t i, int64_t fallback) {
  if (v.empty()) return fallback;
  return v.size() > i ? v[i] : v.back();
}

int64_t pooled(int64_t in, int64_t k, int64_t pad, int64_t st, int64_t dil, bool ceil_mode) {
  TORCH_CHECK(k > 0 && st > 0 && dil > 0,
              "pooling: kernel size, stride and dilation must be "
              "positive");
  TORCH_CHECK(pad >= 0 && pad <= k / 2,
              "pad should be at most half of effective kernel size, "
              "but got pad=",
              pad, ", kernel_size=", k);
  const int64_t num = in + 2 * pad - dil * (k - 1) - 1 + (ceil_mode ? st - 1 : 0);
  int64_t out = (num >= 0 ? num / st : -((-num + st - 1) / st)) + 1;
  if (ceil_mode && (out - 1) * st >= in + pad) --out;
  TORCH_CHECK(out > 0, "pooling: output size is too small for input ", in, " kernel ", k);
  return out;
}

}  // namespace

OutMeta conv(const at::Tensor& input, const at::Tensor& weight, at::IntArrayRef stride,
             at::IntArrayRef padding, at::IntArrayRef dilation) {
  TORCH_CHECK(input.dim() >= 3 && weight.dim() == input.dim(), "convolution: input ", input.sizes(),
              " and weight ", weight.sizes(), " have unsupported ranks");
  const int64_t spatial = input.dim() - 2;
  c10::SmallVector<int64_t, 6> sizes = {input.size(0), weight.size(0)};
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t k = weight.size(2 + i);
    const int64_t dil = at_or_last(dilation, i, 1), pad = at_or_last(padding, i, 0);
    const int64_t st = at_or_last(stride, i, 1);
    TORCH_CHECK(st > 0 && dil > 0, "convolution: stride and dilation must be positive");
    const int64_t span = input.size(2 + i) + 2 * pad - dil * (k - 1) - 1;
    TORCH_CHECK(span >= 0, "convolution: kernel size ", weight.sizes(),
                " is larger than the padded input ", input.sizes());
    sizes.push_back(span / st + 1);
  }
  return OutMeta{sizes, input.scalar_type()};
}

OutMeta channels(const at::Tensor& weight) {
  return OutMeta{{weight.size(0)}, weight.scalar_type()};
}

namespace detail {

OutMeta pool_nd(int64_t spatial, const at::Tensor& input, at::IntArrayRef kernel_size,
                at::IntArrayRef stride, at::IntArrayRef padding, at::IntArrayRef dilation,
                bool ceil_mode) {
  TORCH_CHECK(input.dim() == spatial + 1 || input.dim() == spatial + 2, "pool", spatial,
              "d: expected ", spatial + 1, "-D or ", spatial + 2, "-D input, got ", input.dim(),
              "-D");
  TORCH_CHECK(kernel_size.size() == 1 || static_cast<int64_t>(kernel_size.size()) == spatial,
              "pool", spatial, "d: kernel_size must be one int or ", spatial);
  c10::SmallVector<int64_t, 6> sizes(input.sizes().begin(), input.sizes().end() - spatial);
  for (size_t i = 0; i < static_cast<size_t>(spatial); ++i) {
    const int64_t k = at_or_last(kernel_size, i, 1);
    sizes.push_back(pooled(input.size(input.dim() - spatial + i), k, at_or_last(padding, i, 0),
                           at_or_last(stride, i, k), at_or_last(dilation, i, 1), ceil_mode));
  }
  return OutMeta{sizes, input.scalar_type()};
}

}  // namespace detail

OutMeta pool2d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  return detail::pool_nd(2, input, kernel_size, stride, padding, dilation, ceil_mode);
}

OutMeta pool2d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, bool ceil_mode) {
  return pool2d(input, kernel_size, stride, padding, at::IntArrayRef{}, ceil_mode);
}

OutMeta pool2d_indices(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  OutMeta m = pool2d(input, kernel_size, stride, padding, dilation, ceil_mode);
  m.dtype = at::kLong;
  return m;
}

OutMeta adaptive_pool2d(const at::Tensor& input, at::IntArrayRef output_size) {
  TORCH_CHECK(input.dim() == 3 || input.dim() == 4,
              "adaptive_avg_pool2d: expected 3-D or 4-D input, got ", input.dim(), "-D");
  TORCH_CHECK(output_size.size() == 2, "adaptive_avg_pool2d: output_size must be 2");
  c10::SmallVector<int64_t, 6> sizes(input.sizes().begin(), input.sizes().end() - 2);
  sizes.push_back(output_size[0]);
  sizes.push_back(output_size[1]);
  return OutMeta{sizes, input.scalar_type()};
}

}  // namespace rules
}  // namespace opweave
