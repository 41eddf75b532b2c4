// A kernel for ATen's device-generic `_foreach_*` loops (generated/aten/foreach.cpp).
//
// ATen's "slow" foreach kernels loop over the tensors calling the per-tensor op, which dispatches
// on each tensor's device: on this device they reach the generated wrappers. torch 1.13 lists
// them under the CPU key, torch 2.x under CompositeExplicitAutograd (which fills the CPU slot
// too), and the at::native function names differ between versions (foreach_tensor_maximum_slow_
// became foreach_tensor_clamp_min_list_kernel_slow_). Redispatching to the CPU slot reaches the
// loop on both without naming it, so one generated file serves both versions.
#pragma once

#include <ATen/core/dispatch/Dispatcher.h>
#include <torch/library.h>

namespace opweave {

inline void host_loop(const c10::OperatorHandle& op, c10::DispatchKeySet,
                      torch::jit::Stack* stack) {
  op.redispatchBoxed(c10::DispatchKeySet(c10::DispatchKey::CPU), stack);
}

inline torch::CppFunction host_loop_kernel() {
  return torch::CppFunction::makeFromBoxedFunction<&host_loop>();
}

}  // namespace opweave
