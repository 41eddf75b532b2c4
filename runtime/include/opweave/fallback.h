// CPU fallback: run an ATen op on the CPU for device tensors.
//
// Inputs are copied to the host, the CPU kernel runs, then mutated arguments are written back
// into the original device tensors (out= tensors resized in place, never rebound) and new
// results are copied to the op's device. fp16/bf16 inputs are retried in float32 when the CPU
// kernel lacks the dtype, results cast back. Tensors on different devices raise an error
// naming the op. Each op is logged once on stderr and counted (opweave.fallback_stats()).
#ifndef OPWEAVE_FALLBACK_H_
#define OPWEAVE_FALLBACK_H_

#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/core/stack.h>
#include <ATen/native/CPUFallback.h>

#include <cstdint>
#include <map>
#include <string>
#include <utility>

namespace opweave {

// The boxed fallback registered for every op without a PrivateUse1 kernel.
void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack);
// Same, recording why the op could not run on the device (e.g. "diopiAdd missing in vendor").
void cpu_fallback_with_reason(const c10::OperatorHandle& op, torch::jit::Stack* stack,
                              const char* reason);

// Sets the reason reported by cpu_fallback() on this thread while in scope.
class FallbackReason {
 public:
  explicit FallbackReason(const char* reason);
  ~FallbackReason();
  FallbackReason(const FallbackReason&) = delete;
  FallbackReason& operator=(const FallbackReason&) = delete;

 private:
  const char* previous_;
};

// Unboxed entry for a generated wrapper, with the op's at::_ops struct:
//   return opweave::call_cpu_fallback<ATEN_OP(add_Tensor)>("diopiAdd missing", self, other, alpha);
// (SymInt arguments as int64_t; use call_cpu_fallback_symint to keep c10::SymInt.)
template <class Op, class... Args>
decltype(auto) call_cpu_fallback(const char* reason, Args&&... args) {
  FallbackReason scope(reason);
  return at::native::call_fallback_fn<&cpu_fallback, Op>::call(std::forward<Args>(args)...);
}
template <class Op, class... Args>
decltype(auto) call_cpu_fallback_symint(const char* reason, Args&&... args) {
  FallbackReason scope(reason);
  return at::native::call_fallback_fn_symint<&cpu_fallback, Op>::call(std::forward<Args>(args)...);
}

struct FallbackRecord {
  int64_t count = 0;
  std::string reason;  // reason of the first fallback of the op
};
// Per-op counts keyed by "aten::name.overload"; `reset` clears them (and the log-once state).
std::map<std::string, FallbackRecord> fallback_stats(bool reset = false);

}  // namespace opweave

#endif  // OPWEAVE_FALLBACK_H_
