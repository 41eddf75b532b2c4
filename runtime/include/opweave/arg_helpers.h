// Named helpers computing DIOPI arguments that no ATen argument carries (`value: helper(args)`
// in specs/ops.yaml; codegen/rules.py ARG_HELPERS lists them). Each returns a small holder
// whose get() is the C value passed to the DIOPI function; it lives until the call returns.
#pragma once

#include <ATen/core/Tensor.h>

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
