// Named helpers computing DIOPI arguments that no ATen argument carries (`value: helper(args)`
// in specs/ops.yaml; codegen/rules.py ARG_HELPERS lists them). Each returns a small holder
// whose get() is the C value passed to the DIOPI function; it lives until the call returns.
#pragma once

#include <ATen/core/Tensor.h>
#include <c10/util/ArrayRef.h>
#include <c10/util/Optional.h>

#include <array>
#include <cstdint>

#include "diopi/diopirt.h"

namespace opweave {
namespace args {

// diopiSize_t* pointing at one size, or NULL.
class SizePtr {
 public:
  SizePtr() = default;
  explicit SizePtr(int64_t n) : value_(n), size_{&value_, 1}, present_(true) {}
  SizePtr(const SizePtr& other) : SizePtr() {
    if (other.present_) *this = SizePtr(other.value_);
  }
  SizePtr& operator=(const SizePtr& other) {
    value_ = other.value_;
    present_ = other.present_;
    size_ = diopiSize_t{&value_, present_ ? 1 : 0};
    return *this;
  }
  diopiSize_t* get() const { return present_ ? &size_ : nullptr; }

 private:
  int64_t value_ = 0;
  mutable diopiSize_t size_{nullptr, 0};
  bool present_ = false;
};

// diopiConvolution2dBackward's bias_sizes: [out_channels] when grad_bias is wanted, else NULL.
inline SizePtr conv_bias_sizes(const at::Tensor& weight, std::array<bool, 3> output_mask) {
  return output_mask[2] ? SizePtr(weight.size(0)) : SizePtr();
}

}  // namespace args
}  // namespace opweave

// Guards on ignored ATen arguments (`ignore: {arg: helper(args)}`, codegen/rules.py
// GUARD_HELPERS): true when the DIOPI function, which does not take `arg`, computes what ATen
// computes with it; otherwise the wrapper falls back to the CPU.
namespace opweave {
namespace guards {

// ATen's nearest-neighbour source index is floor(dst * s) with s = 1 / scale when a scale is
// given and in / out otherwise (both in float), except for out == in and out == 2 * in, where
// the scale is not read. DIOPI's upsample takes sizes only, so a scale must give the same s.
inline bool nearest_scale_matches_sizes(c10::optional<double> scale, int64_t in, int64_t out) {
  if (!scale.has_value() || out == in || out == 2 * in || out <= 0) return true;
  const float from_sizes = static_cast<float>(in) / static_cast<float>(out);
  const float from_scale = *scale > 0. ? static_cast<float>(1.0 / *scale) : from_sizes;
  return from_scale == from_sizes;
}

// Spatial dim `dim` (0: H, 1: W) of the input tensor.
inline bool nearest_scale_matches(c10::optional<double> scale, const at::Tensor& input,
                                  at::IntArrayRef output_size, int64_t dim) {
  return nearest_scale_matches_sizes(scale, input.size(input.dim() - 2 + dim), output_size[dim]);
}

// native_group_norm's N, C, HxW describe input as [N, C, HxW]; DIOPI's group norm reads them
// from input's shape [N, C, *], so they must agree with it.
inline bool group_norm_shape(const at::Tensor& input, int64_t n, int64_t c, int64_t hxw) {
  return input.dim() >= 2 && input.size(0) == n && input.size(1) == c &&
         input.numel() == n * c * hxw;
}

// ... of the input sizes [N, C, H, W] (the backward).
inline bool nearest_scale_matches(c10::optional<double> scale, at::IntArrayRef input_size,
                                  at::IntArrayRef output_size, int64_t dim) {
  return nearest_scale_matches_sizes(scale, input_size[input_size.size() - 2 + dim],
                                     output_size[dim]);
}

}  // namespace guards
}  // namespace opweave
