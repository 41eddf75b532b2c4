// DIOPI functions whose catalogue binding does not read backwards into one ATen CPU call
// (generated/aten_ref/coverage.md lists them with the reason). Each still runs exactly the
// CPU kernels native torch runs for the same op.
#include <ATen/core/Tensor.h>  // before the per-operator headers, which assume it
#include <ATen/ops/convolution_backward_ops.h>
#include <ATen/ops/convolution_ops.h>
#include <ATen/ops/copy_ops.h>
#include <ATen/ops/masked_scatter_ops.h>
#include <ATen/ops/maximum.h>
#include <ATen/ops/native_group_norm_ops.h>
#include <ATen/ops/nll_loss_backward_ops.h>
#include <ATen/ops/nll_loss_forward_ops.h>
#include <ATen/ops/reflection_pad1d_ops.h>
#include <ATen/ops/reflection_pad2d_ops.h>
#include <ATen/ops/reflection_pad3d_ops.h>
#include <ATen/ops/replication_pad1d_ops.h>
#include <ATen/ops/replication_pad2d_ops.h>
#include <ATen/ops/replication_pad3d_ops.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "aten_ref.h"
#include "opweave/widen.h"

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

// output_padding of a non-transposed convolution: zeros, one per spatial dim (2.x routes
// conv1d / conv3d to the overrideable hook too, and checks the length).
std::vector<int64_t> no_output_padding(const at::Tensor& input) {
  return std::vector<int64_t>(static_cast<size_t>(std::max<int64_t>(input.dim() - 2, 1)), 0);
}

// One reflection_padNd_out / replication_padNd_out, as a plain function diopiPad can pick.
template <class Op>
at::Tensor& pad_out(c10::DispatchKeySet keys, const at::Tensor& self, at::IntArrayRef padding,
                    at::Tensor& out) {
  return opweave::compat::redispatch<Op>(keys, self, padding, out);
}

}  // namespace

// ATen's forward also returns the total weight, which DIOPI's NLLLoss leaves out.
extern "C" diopiError_t diopiNLLLoss(diopiContextHandle_t, diopiTensorHandle_t out,
                                     diopiConstTensorHandle_t input,
                                     diopiConstTensorHandle_t target,
                                     diopiConstTensorHandle_t weight, diopiReduction_t reduction,
                                     int64_t ignore_index) {
  return guarded([&] {
    const auto result = opweave::compat::redispatch<at::_ops::nll_loss_forward>(
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
    const auto forward = opweave::compat::redispatch<at::_ops::nll_loss_forward>(
        kCpuKeys, self, labels, weight_t, static_cast<int64_t>(reduction), ignore_index);
    aten_ref::Output result(grad_input);
    opweave::compat::redispatch<at::_ops::nll_loss_backward_grad_input>(
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
    const at::Tensor x = wrap(input);
    const at::Tensor w = wrap(weight);
    const auto b = aten_ref::wrap_optional(bias);
    aten_ref::ResultMemory results({out});
    results.keep_clear_of(x, w, b);
    const auto result = results.run([&] {
      return opweave::compat::redispatch<at::_ops::convolution>(
          kCpuKeys, x, w, b, aten_ref::ints(stride), aten_ref::ints(padding),
          aten_ref::ints(dilation), /*transposed=*/false, at::IntArrayRef(no_output_padding(x)),
          groups);
    });
    results.copy_out({{out, result}});
  });
}

extern "C" diopiError_t diopiConvolution2dBackward(
    diopiContextHandle_t, diopiTensorHandle_t grad_input, diopiTensorHandle_t grad_weight,
    diopiTensorHandle_t grad_bias, diopiConstTensorHandle_t grad_output,
    diopiConstTensorHandle_t input, diopiConstTensorHandle_t weight, diopiSize_t* bias_sizes,
    diopiSize_t stride, diopiSize_t padding, diopiSize_t dilation, int64_t groups) {
  return guarded([&] {
    at::OptionalIntArrayRef bias_shape = c10::nullopt;
    if (bias_sizes != nullptr) bias_shape = aten_ref::ints(*bias_sizes);
    const std::array<bool, 3> wanted{grad_input != nullptr, grad_weight != nullptr,
                                     grad_bias != nullptr && bias_sizes != nullptr};
    const at::Tensor x = wrap(input);
    const at::Tensor dy = wrap(grad_output);
    const at::Tensor w = wrap(weight);
    diopiTensorHandle_t outs[3] = {wanted[0] ? grad_input : nullptr,
                                   wanted[1] ? grad_weight : nullptr,
                                   wanted[2] ? grad_bias : nullptr};
    aten_ref::ResultMemory results({outs[0], outs[1], outs[2]});
    results.keep_clear_of(x, dy, w);
    const auto grads = results.run([&] {
      return opweave::compat::redispatch<at::_ops::convolution_backward>(
          kCpuKeys, dy, x, w, bias_shape, aten_ref::ints(stride), aten_ref::ints(padding),
          aten_ref::ints(dilation), /*transposed=*/false, at::IntArrayRef(no_output_padding(x)),
          groups, wanted);
    });
    results.copy_out({{outs[0], std::get<0>(grads)},
                      {outs[1], std::get<1>(grads)},
                      {outs[2], std::get<2>(grads)}});
  });
}

// DIOPI's group norm reads N, C and HxW from input [N, C, *]; ATen's takes them as arguments.
extern "C" diopiError_t diopiGroupNorm(diopiContextHandle_t, diopiTensorHandle_t out,
                                       diopiTensorHandle_t save_mean,
                                       diopiTensorHandle_t save_invstd,
                                       diopiConstTensorHandle_t input,
                                       diopiConstTensorHandle_t weight,
                                       diopiConstTensorHandle_t bias, int64_t num_groups,
                                       double eps) {
  return guarded([&] {
    const at::Tensor x = wrap(input);
    TORCH_CHECK(x.dim() >= 2, "group_norm: input must be [N, C, *], got ", x.sizes());
    const int64_t n = x.size(0), c = x.size(1);
    const int64_t hxw = n * c == 0 ? 0 : x.numel() / (n * c);
    const auto result = opweave::compat::redispatch<at::_ops::native_group_norm>(
        kCpuKeys, x, aten_ref::wrap_optional(weight), aten_ref::wrap_optional(bias), n, c, hxw,
        num_groups, eps);
    aten_ref::copy_result(out, std::get<0>(result));
    if (save_mean != nullptr) aten_ref::copy_result(save_mean, std::get<1>(result));
    if (save_invstd != nullptr) aten_ref::copy_result(save_invstd, std::get<2>(result));
  });
}

// ATen's masked_scatter_ works in place on self; DIOPI's writes out from input.
extern "C" diopiError_t diopiMaskedScatter(diopiContextHandle_t, diopiTensorHandle_t out,
                                           diopiConstTensorHandle_t input,
                                           diopiConstTensorHandle_t mask,
                                           diopiConstTensorHandle_t source) {
  return guarded([&] {
    at::Tensor target = wrap(out);
    const at::Tensor self = wrap(input);
    if (!target.is_same(self) && target.data_ptr() != self.data_ptr()) {
      at::_ops::copy_::redispatch(kCpuKeys, target, self, /*non_blocking=*/false);
    }
    at::_ops::masked_scatter_::redispatch(kCpuKeys, target, wrap(mask), wrap(source));
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

// ---- optimizers: torch.optim.Adam / AdamW's single-tensor update (1.13), op for op ----------

namespace {

// widen(): opweave/widen.h, the double torch computes with for a DIOPI float parameter.
using opweave::widen;

// `decoupled`: AdamW (param *= 1 - lr * weight_decay); otherwise Adam's L2 term on the grad.
void adam_update(diopiTensorHandle_t input, diopiTensorHandle_t grad_h,
                 diopiTensorHandle_t exp_avg_h, diopiTensorHandle_t exp_avg_sq_h,
                 diopiTensorHandle_t max_exp_avg_sq_h, float lr_f, float beta1_f, float beta2_f,
                 float eps_f, float weight_decay_f, int64_t step, bool amsgrad, bool decoupled) {
  TORCH_CHECK(step >= 1, "step must be at least 1 (already incremented), got ", step);
  TORCH_CHECK(!amsgrad || max_exp_avg_sq_h != nullptr, "amsgrad needs max_exp_avg_sq");
  const double lr = widen(lr_f), beta1 = widen(beta1_f), beta2 = widen(beta2_f);
  const double eps = widen(eps_f), weight_decay = widen(weight_decay_f);
  at::Tensor param = wrap(input);
  at::Tensor grad = wrap(grad_h);
  at::Tensor exp_avg = wrap(exp_avg_h);
  at::Tensor exp_avg_sq = wrap(exp_avg_sq_h);
  if (decoupled) {
    param.mul_(1 - lr * weight_decay);
  } else if (weight_decay != 0) {
    grad = grad.add(param, weight_decay);
  }
  // The installed torch's own single-tensor Adam, operation for operation (2.x moved the first
  // moment to lerp_): the reference is bit-identical to CPU torch.optim on either version.
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
  exp_avg.lerp_(grad, 1 - beta1);
#else
  exp_avg.mul_(beta1).add_(grad, 1 - beta1);
#endif
  exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);
  const double steps = static_cast<double>(step);
  const double step_size = lr / (1 - std::pow(beta1, steps));
  const double bias_correction2_sqrt = std::sqrt(1 - std::pow(beta2, steps));
  at::Tensor denom;
  if (amsgrad) {
    at::Tensor max_exp_avg_sq = wrap(max_exp_avg_sq_h);
    at::maximum_out(max_exp_avg_sq, max_exp_avg_sq, exp_avg_sq);
    denom = max_exp_avg_sq.sqrt().div(bias_correction2_sqrt).add_(eps);
  } else {
    denom = exp_avg_sq.sqrt().div(bias_correction2_sqrt).add_(eps);
  }
  param.addcdiv_(exp_avg, denom, -step_size);
}

}  // namespace

extern "C" diopiError_t diopiAdam(diopiContextHandle_t, diopiTensorHandle_t input,
                                  diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                  diopiTensorHandle_t exp_avg_sq,
                                  diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1,
                                  float beta2, float eps, float weight_decay, int64_t step,
                                  bool amsgrad) {
  return guarded([&] {
    adam_update(input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2, eps,
                weight_decay, step, amsgrad, /*decoupled=*/false);
  });
}

extern "C" diopiError_t diopiAdamW(diopiContextHandle_t, diopiTensorHandle_t input,
                                   diopiTensorHandle_t grad, diopiTensorHandle_t exp_avg,
                                   diopiTensorHandle_t exp_avg_sq,
                                   diopiTensorHandle_t max_exp_avg_sq, float lr, float beta1,
                                   float beta2, float eps, float weight_decay, int64_t step,
                                   bool amsgrad) {
  return guarded([&] {
    adam_update(input, grad, exp_avg, exp_avg_sq, max_exp_avg_sq, lr, beta1, beta2, eps,
                weight_decay, step, amsgrad, /*decoupled=*/true);
  });
}

// One DIOPI function for six ATen overloads: the mode and the number of padded dims pick the
// overload (reflection_pad2d_out for 'reflect' with four pads). Other modes are declined, as the
// catalogue routes none to diopiPad.
extern "C" diopiError_t diopiPad(diopiContextHandle_t, diopiTensorHandle_t out,
                                 diopiConstTensorHandle_t input, diopiSize_t pad, const char* mode,
                                 const double*) {
  const bool reflect = mode != nullptr && std::strcmp(mode, "reflect") == 0;
  if (!reflect && (mode == nullptr || std::strcmp(mode, "replicate") != 0)) return diopiNoImplement;
  return guarded([&] {
    const at::Tensor self = wrap(input);
    const at::IntArrayRef padding(pad.data, static_cast<size_t>(pad.len));
    aten_ref::Output result(out);
    // [reflect?][pad.len / 2 - 1]: the overload native torch's F.pad calls
    using PadOut =
        at::Tensor& (*)(c10::DispatchKeySet, const at::Tensor&, at::IntArrayRef, at::Tensor&);
    static const PadOut kOverloads[2][3] = {
        {&pad_out<at::_ops::replication_pad1d_out>, &pad_out<at::_ops::replication_pad2d_out>,
         &pad_out<at::_ops::replication_pad3d_out>},
        {&pad_out<at::_ops::reflection_pad1d_out>, &pad_out<at::_ops::reflection_pad2d_out>,
         &pad_out<at::_ops::reflection_pad3d_out>}};
    if (pad.len != 2 && pad.len != 4 && pad.len != 6)
      throw std::invalid_argument("diopiPad: pad must have 2, 4 or 6 values");
    kOverloads[reflect ? 1 : 0][pad.len / 2 - 1](kCpuKeys, self, padding, result.tensor());
    result.commit();
  });
}
