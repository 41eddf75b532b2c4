// What a generated wrapper does besides the DIOPI call: device checks and context (OpGuard),
// the CPU fallback path, kernel error reporting, and the instrumented slow path (argument
// dump, autocompare, profiler names and device timing). Only OpGuard and the flag test run on the
// fast path.
#pragma once

#include <ATen/core/List.h>
#include <ATen/core/Tensor.h>
#include <ATen/core/boxing/KernelFunction.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/TypeProperties.h>
#include <ATen/record_function.h>
#include <c10/core/DeviceGuard.h>
#include <c10/util/SmallVector.h>

#include <tuple>
#include <utility>
#include <vector>

#include "diopi/diopirt.h"
#include "opweave/context.h"
#include "opweave/diopi_handles.h"
#include "opweave/fallback.h"
#include "opweave/op_registry.h"
#include "opweave/profiler.h"
#include "opweave/stream.h"
#include "opweave/torch_compat.h"

namespace opweave {

// ---- device checks and the DIOPI context of one call ---------------------------------------

[[noreturn]] void throw_device_mismatch(int op, const at::Tensor& t, c10::Device expected);

// The op's device made current for the call and the previous one restored after: what
// c10::DeviceGuard does, without its two virtual calls and with nothing to do when the device
// is current already, as it nearly always is (~80 instructions per op).
class DeviceSwitch {
 public:
  explicit DeviceSwitch(c10::Device d) {
    if (d.type() != c10::DeviceType::PrivateUse1) return;
    previous_ = current_device();
    if (d.index() != previous_) {
      set_device(d.index());
      switched_ = true;
    }
  }
  ~DeviceSwitch() {
    if (!switched_) return;
    try {
      set_device(previous_);
    } catch (...) {
      // It was valid when the op started: nothing sensible to do.
    }
  }
  DeviceSwitch(const DeviceSwitch&) = delete;
  DeviceSwitch& operator=(const DeviceSwitch&) = delete;

 private:
  c10::DeviceIndex previous_ = -1;
  bool switched_ = false;
};

class OpGuard {
 public:
  template <class... Ts>
  explicit OpGuard(int op, const Ts&... tensors) : device_(find_device(tensors...)) {
    (check(op, tensors), ...);
    if (C10_UNLIKELY(!staged_.empty())) {
      // Python numbers take the dtype ATen's promotion gives them among the op's tensors
      at::native::ResultTypeState state{};
      (promote(state, tensors), ...);
      materialize(at::native::result_type(state));
    }
    guard_.emplace(device_);
    ctx_.emplace(device_.index());
  }
  diopiContextHandle_t ctx() { return &*ctx_; }
  c10::DeviceIndex device_index() const { return device_.index(); }
  c10::Device device() const { return device_; }
  // The op's device: that of the first argument on the device (CPU when none is). A derived
  // functional allocates its outputs there, not on its first argument's device (which is the
  // CPU for a wrapped number: `2 - x` is sub(wrapped 2, x)).
  template <class... Ts>
  static c10::Device find_device(const Ts&... ts) {
    c10::Device found(c10::DeviceType::CPU);
    ((found.type() == c10::DeviceType::CPU ? (void)(found = pick(ts)) : (void)0), ...);
    return found;
  }

  // Inputs as the kernel must see them: a CPU 0-dim tensor (Python numbers become such
  // "wrapped numbers") is copied to the op's device; every other tensor passes unchanged.
  const at::Tensor& on_device(const at::Tensor& t) {
    if (C10_LIKELY(staged_.empty())) return t;
    return staged(t);
  }
  // An optional input (Tensor?): NULL when absent.
  diopiConstTensorHandle_t optional_on_device(const c10::optional<at::Tensor>& t) {
    return t.has_value() && t->defined() ? const_handle(on_device(*t)) : nullptr;
  }

 private:
  static c10::Device pick(const at::Tensor& t) {
    return t.defined() && t.device().type() == c10::DeviceType::PrivateUse1
               ? t.device()
               : c10::Device(c10::DeviceType::CPU);
  }
  static c10::Device pick(const c10::optional<at::Tensor>& t) {
    return t.has_value() ? pick(*t) : c10::Device(c10::DeviceType::CPU);
  }
  // Tensor lists (cat, stack): the first device tensor decides; every element must be on it.
  template <class List>
  static c10::Device pick_list(const List& l) {
    for (const at::Tensor& t : l) {
      if (t.defined() && t.device().type() == c10::DeviceType::PrivateUse1) return t.device();
    }
    return c10::Device(c10::DeviceType::CPU);
  }
  static c10::Device pick(at::TensorList l) { return pick_list(l); }
  static c10::Device pick(const at::ITensorListRef& l) { return pick_list(l); }
  static c10::Device pick(const c10::List<c10::optional<at::Tensor>>& l) {
    for (size_t i = 0; i < l.size(); ++i) {
      const c10::Device d = pick(l.get(i));
      if (d.type() == c10::DeviceType::PrivateUse1) return d;
    }
    return c10::Device(c10::DeviceType::CPU);
  }
  // Any other argument (a Scalar, an int list, ...): instrumented_call asks every argument.
  template <class T>
  static c10::Device pick(const T&) {
    return c10::Device(c10::DeviceType::CPU);
  }
  void check(int op, const at::Tensor& t) {
    if (!t.defined() || t.device() == device_) return;
    if (t.device().is_cpu() && t.dim() == 0) {
      stage(t);
      return;
    }
    throw_device_mismatch(op, t, device_);
  }
  void check(int op, const c10::optional<at::Tensor>& t) {
    if (t.has_value()) check(op, *t);
  }
  template <class List>
  void check_list(int op, const List& l) {
    for (const at::Tensor& t : l) {
      if (t.defined() && t.device() != device_) throw_device_mismatch(op, t, device_);
    }
  }
  void check(int op, at::TensorList l) { check_list(op, l); }
  void check(int op, const at::ITensorListRef& l) { check_list(op, l); }
  // Tensor?[] (advanced indexing): as ATen allows for CUDA, index tensors may also live on the
  // CPU; OptionalHandleList copies those to the device.
  void check(int op, const c10::List<c10::optional<at::Tensor>>& l) {
    for (size_t i = 0; i < l.size(); ++i) {
      const c10::optional<at::Tensor> t = l.get(i);
      if (t.has_value() && t->defined() && t->device() != device_ && !t->device().is_cpu()) {
        throw_device_mismatch(op, *t, device_);
      }
    }
  }
  void stage(const at::Tensor& t) { staged_.emplace_back(&t, at::Tensor()); }
  // Copies the staged CPU 0-dim tensors to the device. A wrapped number (a Python scalar) goes
  // in the op's promoted dtype (float32 for float16 / bfloat16, the precision ATen's CPU
  // kernels compute a scalar operand in), not as float64: a kernel sees only 0-dim tensors,
  // and a 0-dim float64 one would promote a 0-dim float32 operand to float64.
  void materialize(at::ScalarType promoted);
  static void promote(at::native::ResultTypeState& s, const at::Tensor& t) {
    if (t.defined()) s = at::native::update_result_type_state(t, s);
  }
  static void promote(at::native::ResultTypeState& s, const c10::optional<at::Tensor>& t) {
    if (t.has_value()) promote(s, *t);
  }
  template <class List>
  static void promote(at::native::ResultTypeState&, const List&) {}  // lists: not operands
  const at::Tensor& staged(const at::Tensor& t) const;

  c10::Device device_;
  c10::optional<DeviceSwitch> guard_;
  c10::optional<OpContext> ctx_;
  c10::SmallVector<std::pair<const at::Tensor*, at::Tensor>, 2> staged_;
};

// ---- what the catalogue promises a kernel -------------------------------------------------
// A kernel sees only the dtypes its catalogue entry lists (the generated wrappers send others,
// complex ones included, to the CPU) and is not called when every output is empty (an empty
// input must not reach a vendor's arithmetic on sizes: ATen 1.13's batch norm divides by zero).

template <class... T>
constexpr uint64_t dtype_set(T... dtypes) {
  return ((uint64_t{1} << static_cast<int>(dtypes)) | ...);
}
inline bool dtype_in(uint64_t set, const at::Tensor& t) {
  // Python numbers (wrapped 0-dim tensors) take the op's dtype in OpGuard.
  return !t.defined() || t.unsafeGetTensorImpl()->is_wrapped_number() ||
         ((set >> static_cast<int>(t.scalar_type())) & 1U) != 0;
}
inline bool dtype_in(uint64_t set, const c10::optional<at::Tensor>& t) {
  return !t.has_value() || dtype_in(set, *t);
}
// A Python number: complex ones are outside every catalogue entry.
inline bool dtype_in(uint64_t /*set*/, const at::Scalar& s) { return !s.isComplex(); }
inline bool dtype_in(uint64_t set, const c10::optional<at::Scalar>& s) {
  return !s.has_value() || dtype_in(set, *s);
}
// An `int?` that is `Scalar?` on newer torch (compat::IntOrScalar on torch 1.13).
inline bool dtype_in(uint64_t /*set*/, const c10::optional<int64_t>& /*s*/) { return true; }
template <class List>
bool dtype_in(uint64_t set, const List& tensors) {
  for (const at::Tensor& t : tensors) {
    if (!dtype_in(set, t)) return false;
  }
  return true;
}

inline bool empty_or_absent(const at::Tensor& t) { return !t.defined() || t.numel() == 0; }
inline bool empty_or_absent(const c10::optional<at::Tensor>& t) {
  return !t.has_value() || empty_or_absent(*t);
}
template <class... Ts>
bool nothing_to_write(const Ts&... tensors) {
  return (empty_or_absent(tensors) && ...);
}

// ---- CPU fallback ---------------------------------------------------------------------------

// The c10 handle of an operator, looked up once. Only the slow paths below need it; they take
// this function by pointer, so that they are templates of the op's signature only and ops that
// share a signature share one instantiation (a wrapper shard compiles ~3x fewer of them). The
// handle is the operator's whose schema the arguments follow (a derived functional calls its
// out variant's implementation with its own op id, for the names and flags).
template <class Ops>
const c10::OperatorHandle& operator_handle() {
  static const c10::OperatorHandle handle =
      c10::Dispatcher::singleton().findSchemaOrThrow(Ops::name, Ops::overload_name);
  return handle;
}
using HandleFn = const c10::OperatorHandle& (*)();

template <class Sig, class... Args>
[[gnu::cold, gnu::noinline]] decltype(auto) fallback_as(HandleFn handle, const char* reason,
                                                        Args&&... args) {
  FallbackReason scope(reason);  // explains this call in the one-time log line
  return compat::schema_apply<Sig>(
      [handle](auto&&... ps) -> decltype(auto) {
        return c10::impl::BoxedKernelWrapper<Sig>::call(
            c10::BoxedKernel::makeFromFunction<&cpu_fallback>(), handle(), c10::DispatchKeySet(),
            std::forward<decltype(ps)>(ps)...);
      },
      std::forward<Args>(args)...);
}

template <class Ops, class... Args>
decltype(auto) fallback_call(int op, const char* reason, Args&&... args) {
  (void)op;
  return fallback_as<typename Ops::schema>(&operator_handle<Ops>, reason,
                                           std::forward<Args>(args)...);
}

// A DIOPI call returned `status`: throws a RuntimeError naming the op, the DIOPI function and
// the vendor's message, or (diopiNoImplement / diopiForceFallbackToCPU) runs the op on CPU.
bool kernel_declined(int op, diopiError_t status);

template <class Ops, class... Args>
decltype(auto) kernel_failed(int op, diopiError_t status, Args&&... args) {
  kernel_declined(op, status);  // throws unless declined
  return fallback_call<Ops>(op, "the kernel declined these arguments", std::forward<Args>(args)...);
}

// ---- instrumented slow path ---------------------------------------------------------------

void dump_call(int op, const torch::jit::Stack& args);

class CompareSession {
 public:
  CompareSession(int op, const c10::OperatorHandle& handle, torch::jit::Stack args);
  // Device results (returned tensors, then mutated arguments are read from the args).
  void finish(const std::vector<at::Tensor>& returned);

 private:
  int op_;
  const c10::OperatorHandle& handle_;
  torch::jit::Stack device_args_;
  std::vector<at::Tensor> before_;  // CPU copies of every tensor argument before the call
};

inline void collect(std::vector<at::Tensor>& out, const at::Tensor& t) { out.push_back(t); }
// A host result (equal's bool) is not a tensor for the comparison.
inline void collect(std::vector<at::Tensor>&, bool) {}
template <class... Ts>
void collect(std::vector<at::Tensor>& out, const std::tuple<Ts...>& t) {
  std::apply([&](const auto&... x) { (collect(out, x), ...); }, t);
}

template <class Sig, class Impl, class... Args>
[[gnu::cold, gnu::noinline]] decltype(auto) instrumented_as(int op, HandleFn handle, Impl impl,
                                                            Args&&... args) {
  ensure_resolved();
  const uint8_t flags = op_flags(op);
  if (flags & kOpFallback) {
    return fallback_as<Sig>(handle, fallback_reason(op), std::forward<Args>(args)...);
  }
  c10::optional<at::RecordFunction> range;
  // Destroyed before `range`: the launch's end event is queued before the host range closes.
  c10::optional<KernelTimer> timer;
  if (flags & kOpProfile) {
    const OpInfo& info = op_info(op);
    range.emplace(at::RecordScope::USER_SCOPE);
    if (range->isActive()) range->before(info.diopi_name);
    // Device timing: only while an opweave.profiler session runs (it also set kOpProfile).
    if (device_timing_on())
      timer.emplace(info.diopi_name, info.aten_name, OpGuard::find_device(args...));
  }
  if (flags & kOpDump) dump_call(op, c10::impl::boxArgs<Args...>(args...));
#ifdef OPWEAVE_AUTOCOMPARE
  if (flags & kOpCompare) {
    CompareSession session(op, handle(), c10::impl::boxArgs<Args...>(args...));
    decltype(auto) result = impl(op, std::forward<Args>(args)...);
    std::vector<at::Tensor> returned;
    collect(returned, result);
    session.finish(returned);
    return result;
  }
#endif
  return impl(op, std::forward<Args>(args)...);
}

template <class Ops, class Impl, class... Args>
decltype(auto) instrumented_call(int op, Impl impl, Args&&... args) {
  return instrumented_as<typename Ops::schema>(op, &operator_handle<Ops>, impl,
                                               std::forward<Args>(args)...);
}

}  // namespace opweave
