// Output rules of the nn families added for native coverage: reflection / replication padding,
// 3-D pooling, adaptive max pooling's indices, glu, im2col and the margin losses. Shapes and
// checks as ATen 1.13's CPU kernels (and 2.x's meta functions) give them, so a call ATen
// refuses raises here, naming the op, before any vendor kernel sees it.
#include <c10/core/WrapDimMinimal.h>

#include "opweave/output_rules.h"

namespace opweave {
namespace rules {
namespace {

using Sizes = c10::SmallVector<int64_t, 6>;

Sizes sizes_of(const at::Tensor& a) { return Sizes(a.sizes().begin(), a.sizes().end()); }

}  // namespace

OutMeta pad(const at::Tensor& input, at::IntArrayRef padding) {
  const int64_t spatial = static_cast<int64_t>(padding.size() / 2);
  TORCH_CHECK(padding.size() % 2 == 0 && spatial >= 1,
              "pad: padding must have an even length, got ", padding.size());
  TORCH_CHECK(input.dim() == spatial + 1 || input.dim() == spatial + 2, "pad: ", spatial,
              "-D padding expects a ", spatial + 1, "-D or ", spatial + 2,
              "-D (batch mode) input, got ", input.dim(), "-D");
  Sizes sizes = sizes_of(input);
  for (int64_t i = 0; i < spatial; ++i) {
    const int64_t d = input.dim() - 1 - i;
    TORCH_CHECK(input.size(d) > 0, "pad: expected an input with non-zero spatial sizes, got ",
                input.sizes());
    sizes[d] += padding[2 * i] + padding[2 * i + 1];
    TORCH_CHECK(sizes[d] >= 1, "pad: input ", input.sizes(), " padded by ", padding,
                " has an empty output");
  }
  return OutMeta{sizes, input.scalar_type()};
}

OutMeta pool3d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  return detail::pool_nd(3, input, kernel_size, stride, padding, dilation, ceil_mode);
}

OutMeta pool3d(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
               at::IntArrayRef padding, bool ceil_mode) {
  return pool3d(input, kernel_size, stride, padding, at::IntArrayRef{}, ceil_mode);
}

OutMeta pool3d_indices(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef stride,
                       at::IntArrayRef padding, at::IntArrayRef dilation, bool ceil_mode) {
  OutMeta m = pool3d(input, kernel_size, stride, padding, dilation, ceil_mode);
  m.dtype = at::kLong;
  return m;
}

OutMeta adaptive_pool2d_indices(const at::Tensor& input, at::IntArrayRef output_size) {
  OutMeta m = adaptive_pool2d(input, output_size);
  m.dtype = at::kLong;
  return m;
}

OutMeta glu(const at::Tensor& input, int64_t dim) {
  TORCH_CHECK(input.dim() > 0, "glu does not support scalars because halving size must be even");
  const int64_t d = c10::maybe_wrap_dim(dim, input.dim());
  TORCH_CHECK(input.size(d) % 2 == 0, "Halving dimension must be even, but dimension ", d,
              " is size ", input.size(d));
  Sizes sizes = sizes_of(input);
  sizes[d] /= 2;
  return OutMeta{sizes, input.scalar_type()};
}

OutMeta im2col(const at::Tensor& input, at::IntArrayRef kernel_size, at::IntArrayRef dilation,
               at::IntArrayRef padding, at::IntArrayRef stride) {
  TORCH_CHECK(
      kernel_size.size() == 2 && dilation.size() == 2 && padding.size() == 2 && stride.size() == 2,
      "im2col: kernel_size, dilation, padding and stride must have two values each");
  TORCH_CHECK(input.dim() == 3 || input.dim() == 4,
              "im2col: expected a 3-D or 4-D (batch mode) input, got ", input.dim(), "-D");
  const bool batched = input.dim() == 4;
  const int64_t c = input.size(batched ? 1 : 0);
  TORCH_CHECK(c > 0 && input.size(-1) > 0 && input.size(-2) > 0,
              "im2col: expected non-empty channel and spatial dims, got ", input.sizes());
  int64_t blocks = 1;
  for (size_t i = 0; i < 2; ++i) {
    TORCH_CHECK(kernel_size[i] > 0 && dilation[i] > 0 && stride[i] > 0 && padding[i] >= 0,
                "im2col: kernel_size, dilation and stride must be positive, padding not negative");
    const int64_t span =
        input.size(input.dim() - 2 + i) + 2 * padding[i] - (dilation[i] * (kernel_size[i] - 1) + 1);
    TORCH_CHECK(span >= 0, "im2col: the kernel ", kernel_size, " (dilation ", dilation,
                ") does not fit the padded input ", input.sizes());
    blocks *= span / stride[i] + 1;
  }
  Sizes sizes;
  if (batched) sizes.push_back(input.size(0));
  sizes.push_back(c * kernel_size[0] * kernel_size[1]);
  sizes.push_back(blocks);
  return OutMeta{sizes, input.scalar_type()};
}

OutMeta prelu(const at::Tensor& input, const at::Tensor& weight) {
  const int64_t channels = input.dim() >= 2 ? input.size(1) : 1;
  TORCH_CHECK(weight.dim() <= 1 && (weight.numel() == 1 || weight.numel() == channels),
              "Mismatch of parameter numbers and input channel size. Found parameter numbers = ",
              weight.numel(), " and channel size = ", channels, ".");
  return OutMeta{sizes_of(input), input.scalar_type()};
}

namespace {

// [nframe, dim] of a margin loss's input (0-D and 1-D inputs are one frame).
int64_t margin_frames(const at::Tensor& input, const char* op) {
  TORCH_CHECK(input.dim() <= 2 && (input.dim() == 0 || input.size(-1) != 0), op,
              ": expected a non-empty 1-D or 2-D input (0-D is a single value), got ",
              input.sizes());
  return input.dim() <= 1 ? 1 : input.size(0);
}

}  // namespace

OutMeta multi_margin_loss(const at::Tensor& input, const at::Tensor& target, int64_t reduction) {
  const int64_t nframe = margin_frames(input, "multi_margin_loss");
  TORCH_CHECK(target.dim() <= 1 && target.numel() == nframe,
              "multi_margin_loss: inconsistent target size, got ", target.sizes(), " for input ",
              input.sizes());
  if (reduction == 0 && target.dim() > 0) return OutMeta{Sizes{nframe}, input.scalar_type()};
  return OutMeta{Sizes{}, input.scalar_type()};
}

OutMeta multilabel_margin_loss(const at::Tensor& input, const at::Tensor& target,
                               int64_t reduction) {
  const int64_t nframe = margin_frames(input, "multilabel_margin_loss");
  const int64_t dim = input.dim() == 0 ? 1 : input.size(-1);
  const bool ok = input.dim() <= 1
                      ? target.dim() <= 1 && target.numel() == dim
                      : target.dim() == 2 && target.size(0) == nframe && target.size(1) == dim;
  TORCH_CHECK(ok, "multilabel_margin_loss: inconsistent target size, got ", target.sizes(),
              " for input ", input.sizes());
  if (reduction == 0 && target.dim() > 1) return OutMeta{Sizes{nframe}, input.scalar_type()};
  return OutMeta{Sizes{}, input.scalar_type()};
}

}  // namespace rules
}  // namespace opweave
