// DIOPI functions whose catalogue binding does not read backwards into one ATen CPU call
// (generated/aten_ref/coverage.md lists them with the reason). Each still runs exactly the
// CPU kernels native torch runs for the same op.
#include <ATen/core/Tensor.h>  // before the per-operator headers, which assume it
#include <ATen/ops/convolution_backward_ops.h>
#include <ATen/ops/convolution_ops.h>
#include <ATen/ops/copy_ops.h>
#include <ATen/ops/nll_loss_backward_ops.h>
#include <ATen/ops/nll_loss_forward_ops.h>

#include <array>
#include <tuple>

#include "aten_ref.h"

namespace {

using aten_ref::kCpuKeys;
using aten_ref::wrap;

template <class F>
diopiError_t guarded(F&& body) noexcept {
  try {
    const aten_ref::BelowAutograd below_autograd;
    body();
    return diopiSuccess;
  } catch (const std::exception& e) {
    return aten_ref::fail(e);
  }
}

constexpr std::array<int64_t, 2> kNoOutputPadding{0, 0};

}  // namespace

// ATen's forward also returns the total weight, which DIOPI's NLLLoss leaves out.
extern "C" diopiError_t diopiNLLLoss(diopiContextHandle_t, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t target,
                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                     int64_t ignore_index) {
  return guarded([&] {
    const auto result = at::_ops::nll_loss_forward::redispatch(
        kCpuKeys, wrap(input), wrap(target), aten_ref::wrap_optional(weight),
        static_cast<int64_t>(reduction), ignore_index);
    aten_ref::copy_result(out, std::get<0>(result));
  });
}

// ATen's backward takes the forward's total weight; DIOPI's recomputes it from the targets.
extern "C" diopiError_t diopiNLLLossBackward(diopiContextHandle_t, diopiTensorHandle_t grad_input,
                                             diopiConstTensorHandle_t grad_output,
                                             diopiConstTensorHandle_t input,
                                             diopiConstTensorHandle_t target,
                                             diopiConstTensorHandle_t weight,
                                             diopiReduction_t reduction, int64_t ignore_index) {
  return guarded([&] {
    const at::Tensor self = wrap(input);
    const at::Tensor labels = wrap(target);
    const auto weight_t = aten_ref::wrap_optional(weight);
    const auto forward = at::_ops::nll_loss_forward::redispatch(
        kCpuKeys, self, labels, weight_t, static_cast<int64_t>(reduction), ignore_index);
    aten_ref::Output result(grad_input);
    at::_ops::nll_loss_backward_grad_input::redispatch(
        kCpuKeys, wrap(grad_output), self, labels, weight_t, static_cast<int64_t>(reduction),
        ignore_index, std::get<1>(forward), result.tensor());
    result.commit();
  });
}

// The catalogue binds the backend-override convolution, which has no CPU kernel; the
// reference runs the convolution native CPU torch runs.
extern "C" diopiError_t diopiConvolution2d(diopiContextHandle_t, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t weight,
                                           diopiConstTensorHandle_t bias, diopiSize_t stride,
                                           diopiSize_t padding, diopiSize_t dilation,
                                           int64_t groups) {
  return guarded([&] {
    const auto result = at::_ops::convolution::redispatch(
        kCpuKeys, wrap(input), wrap(weight), aten_ref::wrap_optional(bias), aten_ref::ints(stride),
        aten_ref::ints(padding), aten_ref::ints(dilation), /*transposed=*/false, kNoOutputPadding,
        groups);
    aten_ref::copy_result(out, result);
  });
}

extern "C" diopiError_t diopiConvolution2dBackward(
    diopiContextHandle_t, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
  return guarded([&] {
    at::OptionalSymIntArrayRef bias_shape = c10::nullopt;
    if (bias_sizes != nullptr) bias_shape = c10::fromIntArrayRef(aten_ref::ints(*bias_sizes));
    const std::array<bool, 3> wanted{grad_input != nullptr, grad_weight != nullptr,
                                     grad_bias != nullptr && bias_sizes != nullptr};
    const auto grads = at::_ops::convolution_backward::redispatch(
        kCpuKeys, wrap(grad_output), wrap(input), wrap(weight), bias_shape, aten_ref::ints(stride),
        aten_ref::ints(padding), aten_ref::ints(dilation), /*transposed=*/false, kNoOutputPadding,
        groups, wanted);
    if (wanted[0]) aten_ref::copy_result(grad_input, std::get<0>(grads));
    if (wanted[1]) aten_ref::copy_result(grad_weight, std::get<1>(grads));
    if (wanted[2]) aten_ref::copy_result(grad_bias, std::get<2>(grads));
  });
}

// Device-to-device copies and dtype casts the runtime makes (no ATen overload of their own).
extern "C" diopiError_t diopiCopyInp(diopiContextHandle_t, diopiConstTensorHandle_t src,
                                     diopiTensorHandle_t dest) {
  return guarded([&] {
    at::Tensor target = wrap(dest);
    at::_ops::copy_::redispatch(kCpuKeys, target, wrap(src), /*non_blocking=*/false);
  });
}

extern "C" diopiError_t diopiCastDtype(diopiContextHandle_t, diopiTensorHandle_t out,
                                       diopiConstTensorHandle_t input) {
  return diopiCopyInp(nullptr, input, out);
}
