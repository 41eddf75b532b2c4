// A whole parameter group's Adam / AdamW update in one dispatcher call:
//
//   aten::_fused_adam_      (torch.optim.Adam(fused=True)'s op; opweave.optim.Adam calls it)
//   opweave::fused_adamw_   (the same schema with decoupled weight decay; opweave.optim.AdamW)
//
// Both loop over the tensors and call the vendor's per-tensor DIOPI kernel (diopiAdam /
// diopiAdamW) on the current stream. state_steps hold the step count already incremented (as
// torch's _fused_adam does before calling the op). When the vendor has no kernel, declines the
// arguments, or the call asks for something DIOPI cannot express (maximize, a step that is not
// a whole number, mixed dtypes), that tensor is updated by torch's single-tensor math made of
// ordinary ATen ops, which run on the device through the generated wrappers.
#include <ATen/core/LegacyTypeDispatch.h>
#include <ATen/core/Tensor.h>
#include <ATen/ops/cat.h>
#include <ATen/ops/maximum.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/GradMode.h>
#include <diopi/prototypes.h>
#include <torch/library.h>

#include <cmath>
#include <vector>

#include "aten/internal.h"
#include "opweave/context.h"
#include "opweave/diopi_errors.h"
#include "opweave/diopi_handles.h"
#include "opweave/diopi_slots.h"
#include "opweave/torch_compat.h"

namespace opweave {
namespace {

using AdamKernel = decltype(&::diopiAdam);
static_assert(std::is_same<AdamKernel, decltype(&::diopiAdamW)>::value,
              "diopiAdam and diopiAdamW share one signature");

struct Variant {
  const char* op;     // for messages
  const char* diopi;  // the kernel's name
  int slot;           // its catalogue slot
  bool decoupled;     // AdamW
};

const Variant kAdam{"aten::_fused_adam_", "diopiAdam", slot::diopiAdam, false};
const Variant kAdamW{"opweave::fused_adamw_", "diopiAdamW", slot::diopiAdamW, true};

struct Hyper {
  double lr, beta1, beta2, weight_decay, eps;
  bool amsgrad, maximize;
};

// The step count of every tensor. CPU steps (torch's default state layout) are read directly;
// device steps are gathered with one cat and read with one device-to-host copy, i.e. one
// synchronisation per call rather than one per tensor.
std::vector<double> read_steps(at::TensorList steps, const char* op) {
  std::vector<double> values(steps.size());
  std::vector<at::Tensor> on_dev;
  std::vector<size_t> where;
  for (size_t i = 0; i < steps.size(); ++i) {
    const at::Tensor& s = steps[i];
    TORCH_CHECK(s.defined() && s.numel() == 1, op, ": state_steps[", i,
                "] must hold one number (the step count)");
    if (on_device(s)) {
      on_dev.push_back(s.reshape({1}).to(at::kDouble));
      where.push_back(i);
    } else {
      values[i] = s.item<double>();
    }
  }
  if (!on_dev.empty()) {
    const at::Tensor host = at::cat(on_dev).to(c10::Device(c10::DeviceType::CPU));  // the sync
    const double* data = host.data_ptr<double>();
    for (size_t k = 0; k < where.size(); ++k) values[where[k]] = data[k];
  }
  return values;
}

// This torch's _single_tensor_adam / _single_tensor_adamw for one tensor (capturable=False),
// op for op, so the result is bit-identical to torch's own: used when the kernel cannot do the
// update.
void reference_update(const Variant& v, const Hyper& h, const at::Tensor& param,
                      const at::Tensor& grad_in, const at::Tensor& exp_avg,
                      const at::Tensor& exp_avg_sq, const at::Tensor* max_exp_avg_sq, double step) {
  at::Tensor grad = h.maximize ? grad_in.neg() : grad_in;
  if (v.decoupled) {
    param.mul_(1 - h.lr * h.weight_decay);
  } else if (h.weight_decay != 0) {
    grad = grad.add(param, h.weight_decay);
  }
#if OPWEAVE_TORCH_AT_LEAST(2, 0)
  exp_avg.lerp_(grad, 1 - h.beta1);  // 2.x's form; it rounds differently from 1.13's below
#else
  exp_avg.mul_(h.beta1).add_(grad, 1 - h.beta1);
#endif
  exp_avg_sq.mul_(h.beta2).addcmul_(grad, grad, 1 - h.beta2);
  const double step_size = h.lr / (1 - std::pow(h.beta1, step));
  const double bias_correction2_sqrt = std::sqrt(1 - std::pow(h.beta2, step));
  at::Tensor denom;
  if (h.amsgrad) {
    at::maximum_out(const_cast<at::Tensor&>(*max_exp_avg_sq), *max_exp_avg_sq, exp_avg_sq);
    denom = max_exp_avg_sq->sqrt().div(bias_correction2_sqrt).add_(h.eps);
  } else {
    denom = exp_avg_sq.sqrt().div(bias_correction2_sqrt).add_(h.eps);
  }
  param.addcdiv_(exp_avg, denom, -step_size);
}

// The kernel cannot do this update (aten_ref's float16: ATen's CPU addcmul has no Half kernel):
// torch's math as device ops takes over.
bool declined(diopiError_t err) {
  return err == diopiNoImplement || err == diopiForceFallbackToCPU || err == diopiDtypeNotSupported;
}

bool kernel_dtype(at::ScalarType t) {
  return t == at::kFloat || t == at::kDouble || t == at::kHalf || t == at::kBFloat16;
}

void fused_adam_impl(const Variant& v, at::TensorList params, at::TensorList grads,
                     at::TensorList exp_avgs, at::TensorList exp_avg_sqs,
                     at::TensorList max_exp_avg_sqs, at::TensorList state_steps, const Hyper& h,
                     const c10::optional<at::Tensor>& grad_scale,
                     const c10::optional<at::Tensor>& found_inf) {
  TORCH_CHECK(!grad_scale.has_value() && !found_inf.has_value(), v.op,
              ": grad_scale / found_inf (AMP's GradScaler) are not supported on opweave; "
              "unscale the gradients before step() or use the single-tensor optimizer");
  const size_t n = params.size();
  TORCH_CHECK(grads.size() == n && exp_avgs.size() == n && exp_avg_sqs.size() == n &&
                  state_steps.size() == n,
              v.op,
              ": params, grads, exp_avgs, exp_avg_sqs and state_steps must have the same "
              "length");
  TORCH_CHECK(!h.amsgrad || max_exp_avg_sqs.size() == n, v.op,
              ": amsgrad needs one max_exp_avg_sq per parameter");
  if (n == 0) return;
  const std::vector<double> steps = read_steps(state_steps, v.op);
  const auto kernel = reinterpret_cast<AdamKernel>(g_diopi_slots[v.slot]);
  for (size_t i = 0; i < n; ++i) {
    const at::Tensor& p = params[i];
    const at::Tensor* state[4] = {&grads[i], &exp_avgs[i], &exp_avg_sqs[i],
                                  h.amsgrad ? &max_exp_avg_sqs[i] : nullptr};
    TORCH_CHECK(on_device(p), v.op, ": params[", i, "] is on ", p.device(), ", expected a ",
                c10::DeviceTypeName(c10::DeviceType::PrivateUse1, true), " device");
    bool uniform = kernel_dtype(p.scalar_type());
    for (const at::Tensor* t : state) {
      if (t == nullptr) continue;
      TORCH_CHECK(t->device() == p.device(), v.op, ": the state of params[", i, "] is on ",
                  t->device(), ", the parameter on ", p.device());
      TORCH_CHECK(t->sizes() == p.sizes(), v.op, ": the state of params[", i, "] has shape ",
                  t->sizes(), ", the parameter ", p.sizes());
      uniform = uniform && t->scalar_type() == p.scalar_type();
    }
    const double step = steps[i];
    const bool whole = step >= 1 && step == std::floor(step) && step < 9.0e15;
    if (kernel != nullptr && !h.maximize && uniform && whole) {
      const c10::DeviceGuard guard(p.device());
      TimedLaunch launch(v.diopi, v.op, p.device().index());
      OpContext ctx(p.device().index());
      const diopiError_t err = kernel(
          &ctx, handle(p), handle(grads[i]), handle(exp_avgs[i]), handle(exp_avg_sqs[i]),
          h.amsgrad ? handle(max_exp_avg_sqs[i]) : nullptr, static_cast<float>(h.lr),
          static_cast<float>(h.beta1), static_cast<float>(h.beta2), static_cast<float>(h.eps),
          static_cast<float>(h.weight_decay), static_cast<int64_t>(step), h.amsgrad);
      if (err == diopiSuccess) continue;
      if (!declined(err)) throw_diopi_error(err, v.diopi, v.op);
    }
    reference_update(v, h, p, grads[i], exp_avgs[i], exp_avg_sqs[i], state[3], step);
  }
}

template <const Variant& V>
void fused_adam_op(at::TensorList self, at::TensorList grads, at::TensorList exp_avgs,
                   at::TensorList exp_avg_sqs, at::TensorList max_exp_avg_sqs,
                   at::TensorList state_steps, double lr, double beta1, double beta2,
                   double weight_decay, double eps, bool amsgrad, bool maximize,
                   const c10::optional<at::Tensor>& grad_scale,
                   const c10::optional<at::Tensor>& found_inf) {
  const Hyper h{lr, beta1, beta2, weight_decay, eps, amsgrad, maximize};
  fused_adam_impl(V, self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, h,
                  grad_scale, found_inf);
}

// PyTorch 1.13 has no autograd fallback for PrivateUse1, so the custom op needs a kernel on
// AutogradPrivateUse1. The update is not differentiable (optimizers step under no_grad); this
// kernel refuses a call that would need a graph, bumps the version counters of the tensors it
// updates (as ADInplaceOrView does for ATen's in-place ops) and runs the device kernel.
void fused_adamw_autograd(at::TensorList self, at::TensorList grads, at::TensorList exp_avgs,
                          at::TensorList exp_avg_sqs, at::TensorList max_exp_avg_sqs,
                          at::TensorList state_steps, double lr, double beta1, double beta2,
                          double weight_decay, double eps, bool amsgrad, bool maximize,
                          const c10::optional<at::Tensor>& grad_scale,
                          const c10::optional<at::Tensor>& found_inf) {
  if (c10::GradMode::is_enabled()) {
    for (const at::TensorList list : {self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs}) {
      for (const at::Tensor& t : list) {
        TORCH_CHECK(!t.requires_grad(), kAdamW.op,
                    " is not differentiable: call it under torch.no_grad()");
      }
    }
  }
  {
    const at::AutoDispatchBelowADInplaceOrView below_autograd;
    fused_adam_op<kAdamW>(self, grads, exp_avgs, exp_avg_sqs, max_exp_avg_sqs, state_steps, lr,
                          beta1, beta2, weight_decay, eps, amsgrad, maximize, grad_scale,
                          found_inf);
  }
  for (const at::TensorList list : {self, exp_avgs, exp_avg_sqs, max_exp_avg_sqs}) {
    for (const at::Tensor& t : list) t.unsafeGetTensorImpl()->bump_version();
  }
}

}  // namespace

TORCH_LIBRARY_FRAGMENT(opweave, m) {
  m.def(
      "fused_adamw_(Tensor(a!)[] self, Tensor(b!)[] grads, Tensor(c!)[] exp_avgs, "
      "Tensor(d!)[] exp_avg_sqs, Tensor(e!)[] max_exp_avg_sqs, Tensor[] state_steps, *, "
      "float lr, float beta1, float beta2, float weight_decay, float eps, bool amsgrad, "
      "bool maximize, Tensor? grad_scale=None, Tensor? found_inf=None) -> ()");
}

TORCH_LIBRARY_IMPL(opweave, PrivateUse1, m) {
  m.impl("fused_adamw_", TORCH_FN(fused_adam_op<kAdamW>));
}

TORCH_LIBRARY_IMPL(opweave, AutogradPrivateUse1, m) {
  m.impl("fused_adamw_", TORCH_FN(fused_adamw_autograd));
}

TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) { m.impl("_fused_adam_", TORCH_FN(fused_adam_op<kAdam>)); }

}  // namespace opweave
