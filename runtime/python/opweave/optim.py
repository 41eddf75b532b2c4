"""Adam and AdamW whose step() updates each parameter group with one fused call on the device.

torch 1.13's Adam(fused=True) accepts CUDA tensors only, and AdamW has no fused form, so
these subclasses of torch.optim.Adam / AdamW route their step to the runtime's ops:

    aten::_fused_adam_     Adam (L2 weight decay), the op torch's fused Adam calls
    opweave::fused_adamw_  AdamW (decoupled weight decay), the same schema

Each loops over the group's tensors in C++ and runs the vendor's diopiAdam / diopiAdamW
kernel once per parameter (runtime/aten/fused_adam.cpp); a vendor without the kernel gets
torch's single-tensor math as device ops instead. The state has torch's layout (`step` a CPU
float tensor, `exp_avg`, `exp_avg_sq`, `max_exp_avg_sq` with amsgrad), so state_dict()
round-trips with torch.optim.Adam / AdamW. Parameters that are not on the opweave device are
updated by torch's own single-tensor implementation.

    opt = opweave.optim.AdamW(model.parameters(), lr=1e-3, weight_decay=0.01)
"""

from __future__ import annotations

import sys

import torch
from torch.optim import adam as _adam
from torch.optim import adamw as _adamw

__all__ = ["Adam", "AdamW"]


def _device_type() -> str:
    # Read at each step, not imported: this module loads before the package renames its device
    # on torch 2.x ("privateuseone" -> "opweave"); a name bound at import would send every
    # parameter to torch's single-tensor update there.
    return sys.modules[__package__].DEVICE


def _check_options(name: str, foreach, capturable, differentiable, fused=False) -> None:
    if foreach:
        raise ValueError(f"opweave.optim.{name} is the fused form; use torch.optim.{name}"
                         "(foreach=True) for the foreach one")
    if capturable or differentiable or fused:
        raise ValueError(f"opweave.optim.{name} supports neither capturable, differentiable "
                         "nor torch's CUDA-only fused=True")


class _FusedStep:
    """The step() shared by Adam and AdamW; subclasses name the fused op and torch's
    single-tensor function for parameters off the device."""

    def _fused_call(self, *lists, **kw) -> None:
        raise NotImplementedError

    @staticmethod
    def _torch_single(*lists, **kw) -> None:
        raise NotImplementedError

    @torch.no_grad()
    def step(self, closure=None):
        loss = None
        if closure is not None:
            with torch.enable_grad():
                loss = closure()
        device_type = _device_type()
        for group in self.param_groups:
            amsgrad = group["amsgrad"]
            beta1, beta2 = group["betas"]
            lists = {True: ([], [], [], [], [], []), False: ([], [], [], [], [], [])}
            for p in group["params"]:
                if p.grad is None:
                    continue
                if p.grad.is_sparse:
                    raise RuntimeError(f"{type(self).__name__} does not support sparse gradients")
                state = self.state[p]
                if len(state) == 0:   # torch's lazy initialisation, same layout
                    state["step"] = torch.tensor(0.)
                    state["exp_avg"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    state["exp_avg_sq"] = torch.zeros_like(p, memory_format=torch.preserve_format)
                    if amsgrad:
                        state["max_exp_avg_sq"] = torch.zeros_like(
                            p, memory_format=torch.preserve_format)
                on_device = p.device.type == device_type
                params, grads, exp_avgs, exp_avg_sqs, max_sqs, steps = lists[on_device]
                params.append(p)
                grads.append(p.grad)
                exp_avgs.append(state["exp_avg"])
                exp_avg_sqs.append(state["exp_avg_sq"])
                if amsgrad:
                    max_sqs.append(state["max_exp_avg_sq"])
                steps.append(state["step"])
            hyper = dict(lr=group["lr"], beta1=beta1, beta2=beta2,
                         weight_decay=group["weight_decay"], eps=group["eps"], amsgrad=amsgrad,
                         maximize=group["maximize"])
            on_device = lists[True]
            if on_device[0]:
                # the op takes the step count already incremented, as torch's _fused_adam does
                torch._foreach_add_(on_device[5], 1)
                self._fused_call(*on_device, **hyper)
            if lists[False][0]:
                self._torch_single(*lists[False], foreach=False, capturable=False,
                                   differentiable=False, grad_scale=None, found_inf=None,
                                   **hyper)
        return loss


class Adam(_FusedStep, torch.optim.Adam):
    """torch.optim.Adam whose step runs aten::_fused_adam_ per parameter group."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False,
                 differentiable=False, fused=False):
        _check_options("Adam", foreach, capturable, differentiable, fused)
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad, maximize=maximize, foreach=False)

    def _fused_call(self, params, grads, exp_avgs, exp_avg_sqs, max_sqs, steps, **hyper):
        torch._fused_adam_(params, grads, exp_avgs, exp_avg_sqs, max_sqs, steps, **hyper)

    @staticmethod
    def _torch_single(*lists, **kw):
        _adam.adam(*lists, **kw)


class AdamW(_FusedStep, torch.optim.AdamW):
    """torch.optim.AdamW whose step runs opweave::fused_adamw_ per parameter group."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2,
                 amsgrad=False, *, maximize=False, foreach=None, capturable=False):
        _check_options("AdamW", foreach, capturable, False)
        super().__init__(params, lr=lr, betas=betas, eps=eps, weight_decay=weight_decay,
                         amsgrad=amsgrad, maximize=maximize, foreach=False)

    def _fused_call(self, params, grads, exp_avgs, exp_avg_sqs, max_sqs, steps, **hyper):
        torch.ops.opweave.fused_adamw_(params, grads, exp_avgs, exp_avg_sqs, max_sqs, steps,
                                       **hyper)

    @staticmethod
    def _torch_single(*lists, **kw):
        for name in ("differentiable", "grad_scale", "found_inf"):
            kw.pop(name)   # torch 1.13's adamw() takes none of them
        _adamw.adamw(*lists, **kw)
