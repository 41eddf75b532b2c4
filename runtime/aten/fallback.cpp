// Boxed CPU fallback for every ATen op without a PrivateUse1 kernel (and for generated
// wrappers whose DIOPI kernel is missing or declines).
#include "opweave/fallback.h"

#include <ATen/core/Tensor.h>
#include <ATen/ops/_copy_from_and_resize.h>
#include <c10/core/DeviceGuard.h>
#include <c10/util/SmallVector.h>
#include <torch/library.h>

#include <atomic>
#include <cstdio>
#include <memory>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "aten/internal.h"
#include "opweave/stream.h"

namespace opweave {
namespace {

constexpr const char* kNoKernel = "no PrivateUse1 kernel";
thread_local const char* t_reason = nullptr;
// CPU fallbacks run by this thread while device timing is on (profiler.cpp marks a launch whose
// op fell back).
thread_local uint64_t t_fallbacks = 0;

// One op's fallback count. Its name is built once: c10::toString goes through an ostringstream
// (locale facets, a dozen allocations): ~3k instructions, a sixth of what a 1-element fallback
// added before.
struct OpStats {
  explicit OpStats(const c10::OperatorName& n) : op(n), name(c10::toString(n)) {}
  const c10::OperatorName op;
  const std::string name;
  std::atomic<int64_t> count{0};
  std::string reason;  // of the first fallback since the last reset; under Stats::mu
};

struct Stats {
  std::mutex mu;
  // Keyed by the op's schema, whose address is stable while the op is registered; an entry is
  // never freed (a thread's cache may point at it), one per op the process has let fall back.
  std::unordered_map<const void*, OpStats*> by_schema;
  std::vector<std::unique_ptr<OpStats>> all;
};
Stats& stats() {
  static Stats* s = new Stats();  // leaked: ops may fall back during process exit
  return *s;
}

// The op's entry: this thread's last one when it is the same op, else looked up under the lock.
// The name is compared too, for an op registered again at a freed schema's address.
OpStats& op_stats(const c10::OperatorHandle& op) {
  thread_local const void* t_key = nullptr;
  thread_local OpStats* t_entry = nullptr;
  const void* key = &op.schema();
  if (t_key == key && t_entry->op == op.operator_name()) return *t_entry;
  Stats& s = stats();
  std::lock_guard<std::mutex> lock(s.mu);
  OpStats*& slot = s.by_schema[key];
  if (slot == nullptr || !(slot->op == op.operator_name())) {
    s.all.push_back(std::make_unique<OpStats>(op.operator_name()));
    slot = s.all.back().get();
  }
  t_key = key;
  t_entry = slot;
  return *slot;
}

// Counts the call; the first fallback of each op is logged (this is the slow path anyway).
void record(OpStats& op, const char* reason) {
  if (C10_UNLIKELY(device_timing_on())) ++t_fallbacks;  // only a timed launch asks
  if (op.count.fetch_add(1, std::memory_order_relaxed) != 0) return;
  {
    std::lock_guard<std::mutex> lock(stats().mu);
    op.reason = reason;
  }
  std::fprintf(stderr, "[opweave] fallback to CPU: %s (%s)\n", op.name.c_str(), reason);
}

bool is_low_precision(c10::ScalarType t) {
  return t == c10::ScalarType::Half || t == c10::ScalarType::BFloat16;
}

// Calls fn(tensor, in_optional_list) for every defined tensor among the IValues.
template <class F>
void for_each_tensor(c10::ArrayRef<c10::IValue> args, F&& fn) {
  for (const c10::IValue& v : args) {
    if (v.isTensor()) {
      if (v.toTensor().defined()) fn(v.toTensor(), false);
    } else if (v.isTensorList()) {
      for (const at::Tensor& t : v.toTensorVector()) {
        if (t.defined()) fn(t, false);
      }
    } else if (v.isOptionalTensorList()) {
      for (const c10::optional<at::Tensor>& t : v.toOptionalTensorVector()) {
        if (t.has_value() && t->defined()) fn(*t, true);
      }
    }
  }
}

// The device the op runs for; rejects tensors on different devices, as a real device would.
// CPU scalars (0-dim) are allowed anywhere, and CPU indices in Tensor?[] lists (index/index_put).
c10::optional<c10::Device> op_device(const std::string& name, c10::ArrayRef<c10::IValue> args) {
  c10::optional<c10::Device> device;
  c10::optional<c10::Device> cpu_operand;
  for_each_tensor(args, [&](const at::Tensor& t, bool in_index_list) {
    if (t.is_cpu()) {
      if (t.dim() > 0 && !in_index_list) cpu_operand = t.device();
      return;
    }
    if (!device.has_value()) {
      device = t.device();
    } else {
      TORCH_CHECK(*device == t.device(), name,
                  ": expected all tensors to be on the same device, but found tensors on ", *device,
                  " and ", t.device());
    }
  });
  if (device.has_value() && cpu_operand.has_value()) {
    TORCH_CHECK(false, name,
                ": expected all tensors to be on the same device, but found tensors on ", *device,
                " and cpu (move the cpu tensor with .to(", *device, "))");
  }
  if (!device.has_value()) {
    for (const c10::IValue& v : args) {  // factory ops: the device argument
      if (v.isDevice() && v.toDevice().type() == kDeviceType) {
        c10::Device d = v.toDevice();
        return d.has_index() ? d : c10::Device(kDeviceType, current_device());
      }
    }
  }
  return device;
}

// The value with fn applied to each defined tensor in it (tensor, tensor list, Tensor?[]).
template <class F>
c10::IValue map_tensors(const c10::IValue& v, F&& fn) {
  if (v.isTensor()) {
    const at::Tensor& t = v.toTensor();
    return t.defined() ? c10::IValue(fn(t)) : v;
  }
  if (v.isTensorList()) {
    std::vector<at::Tensor> out;
    for (const at::Tensor& t : v.toTensorVector()) out.push_back(t.defined() ? fn(t) : t);
    return c10::IValue(c10::List<at::Tensor>(out));
  }
  if (v.isOptionalTensorList()) {
    c10::List<c10::optional<at::Tensor>> out;
    for (const c10::optional<at::Tensor>& t : v.toOptionalTensorVector()) {
      out.push_back(t.has_value() && t->defined() ? c10::optional<at::Tensor>(fn(*t)) : t);
    }
    return c10::IValue(out);
  }
  return v;
}

// The argument with its device tensors copied to the host without waiting (the caller waits
// once for all of them: one round trip per call, not one per tensor) and a device argument
// of a factory op turned into the CPU.
c10::IValue fetch_to_host(const c10::IValue& v) {
  if (v.isDevice() && v.toDevice().type() == kDeviceType)
    return c10::IValue(c10::Device(c10::kCPU));
  return map_tensors(v,
                     [](const at::Tensor& t) { return t.is_cpu() ? t : fetch_to_host_async(t); });
}

c10::IValue upcast_low_precision(const c10::IValue& v) {
  return map_tensors(v, [](const at::Tensor& t) {
    return is_low_precision(t.scalar_type()) ? t.to(c10::kFloat) : t;
  });
}

// CPU kernels report a missing dtype as "... not implemented for 'Half'".
bool missing_low_precision_kernel(const c10::Error& e) {
  const std::string msg = e.what_without_backtrace();
  return msg.find("not implemented for 'Half'") != std::string::npos ||
         msg.find("not implemented for 'BFloat16'") != std::string::npos;
}

// New results go to the op's device; float32 results of an upcast run get the input dtype.
at::Tensor to_device(const at::Tensor& t, const c10::Device& device,
                     c10::optional<c10::ScalarType> low) {
  if (!t.defined()) return t;
  if (low.has_value() && t.scalar_type() == c10::ScalarType::Float) return t.to(device, *low);
  return t.to(device);
}

void write_back(const at::Tensor& host, const at::Tensor& orig) {
  if (!orig.defined() || host.is_same(orig)) return;
  if (!orig.is_cpu()) {
    at::_copy_from_and_resize(host, orig);
    return;
  }
  if (orig.sizes() != host.sizes()) orig.resize_(host.sizes());  // an upcast CPU argument
  orig.copy_(host);
}

void run_on_cpu(const c10::OperatorHandle& op, torch::jit::Stack* stack, const std::string& name) {
  const c10::FunctionSchema& schema = op.schema();
  const auto& formals = schema.arguments();
  const size_t num_args = formals.size();
  const size_t begin = stack->size() - num_args;
  // On the stack, not the heap: most ops have a handful of arguments.
  const c10::SmallVector<c10::IValue, 8> args(stack->begin() + begin, stack->end());

  for (const c10::Argument& ret : schema.returns()) {
    TORCH_CHECK(ret.alias_info() == nullptr || ret.alias_info()->isWrite(), name,
                " is a view op without an opweave kernel: a view cannot be computed on the CPU "
                "(its storage would not be shared with the device tensor)");
  }
  const c10::optional<c10::Device> device = op_device(name, args);
  c10::optional<c10::ScalarType> low;
  for_each_tensor(args, [&](const at::Tensor& t, bool) {
    if (!low.has_value() && is_low_precision(t.scalar_type())) low = t.scalar_type();
  });

  c10::SmallVector<c10::IValue, 8> fetched;
  fetched.reserve(num_args);
  for (const c10::IValue& v : args) fetched.push_back(fetch_to_host(v));
  if (device.has_value()) synchronize_stream(current_stream(device->index()));
  c10::SmallVector<c10::IValue, 8> host_args;
  bool upcast = false;
  for (;;) {
    host_args.clear();
    for (const c10::IValue& v : fetched) host_args.push_back(upcast ? upcast_low_precision(v) : v);
    stack->resize(begin);
    stack->insert(stack->end(), host_args.begin(), host_args.end());
    try {
      redispatch_on_cpu(op, name, stack);
      break;
    } catch (const c10::Error& e) {
      if (upcast || !low.has_value() || !missing_low_precision_kernel(e)) throw;
      upcast = true;  // retry in float32
      stack->resize(begin);
    }
  }

  // Write mutated arguments back into the original tensors (in place: resized, never
  // rebound, so views and Python references stay valid).
  for (size_t i = 0; i < num_args; ++i) {
    const c10::AliasInfo* alias = formals[i].alias_info();
    if (alias == nullptr || !alias->isWrite()) continue;
    if (args[i].isTensor()) {
      write_back(host_args[i].toTensor(), args[i].toTensor());
    } else if (args[i].isTensorList()) {
      const auto origs = args[i].toTensorVector();
      const auto hosts = host_args[i].toTensorVector();
      for (size_t j = 0; j < origs.size(); ++j) write_back(hosts[j], origs[j]);
    }
  }

  const auto& rets = schema.returns();
  const size_t rbegin = stack->size() - rets.size();
  for (size_t r = 0; r < rets.size(); ++r) {
    c10::IValue& out = (*stack)[rbegin + r];
    const c10::AliasInfo* alias = rets[r].alias_info();
    if (alias != nullptr && alias->isWrite()) {
      // `self` / `out` returned: hand back the original argument, not the host copy.
      bool found = false;
      for (size_t i = 0; i < num_args && !found; ++i) {
        const c10::AliasInfo* a = formals[i].alias_info();
        if (a != nullptr && *a == *alias) {
          out = args[i];
          found = true;
        }
      }
      TORCH_CHECK(found, name, ": cannot match a mutable return to its argument");
      continue;
    }
    if (!device.has_value()) continue;  // no device tensors at all: nothing to move
    if (out.isTensor()) {
      out = to_device(out.toTensor(), *device, upcast ? low : c10::nullopt);
    } else if (out.isTensorList()) {
      std::vector<at::Tensor> moved;
      for (const at::Tensor& t : out.toTensorVector()) {
        moved.push_back(to_device(t, *device, upcast ? low : c10::nullopt));
      }
      out = c10::IValue(c10::List<at::Tensor>(moved));
    }
  }
}

}  // namespace

FallbackReason::FallbackReason(const char* reason) : previous_(t_reason) { t_reason = reason; }
FallbackReason::~FallbackReason() { t_reason = previous_; }

void cpu_fallback_with_reason(const c10::OperatorHandle& op, torch::jit::Stack* stack,
                              const char* reason) {
  OpStats& entry = op_stats(op);
  record(entry, reason != nullptr ? reason : kNoKernel);
  try {
    run_on_cpu(op, stack, entry.name);
  } catch (c10::Error& e) {
    e.add_context("in the CPU fallback of " + entry.name);
    throw;
  }
}

void cpu_fallback(const c10::OperatorHandle& op, torch::jit::Stack* stack) {
  const char* reason = t_reason;
  t_reason = nullptr;  // one FallbackReason scope explains one call
  cpu_fallback_with_reason(op, stack, reason);
}

uint64_t thread_fallback_count() { return t_fallbacks; }

std::map<std::string, FallbackRecord> fallback_stats(bool reset) {
  Stats& s = stats();
  std::lock_guard<std::mutex> lock(s.mu);
  std::map<std::string, FallbackRecord> out;
  for (const std::unique_ptr<OpStats>& op : s.all) {
    // A reset zeroes the count, so the op's next fallback is the first again (logged, reason).
    const int64_t count = reset ? op->count.exchange(0) : op->count.load();
    if (count == 0) continue;
    FallbackRecord& r = out[op->name];  // one name twice: the op registered again
    if (r.count == 0) r.reason = op->reason;
    r.count += count;
  }
  return out;
}

TORCH_LIBRARY_IMPL(_, PrivateUse1, m) {
  m.fallback(torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}

// CompositeImplicitAutograd overloads whose ATen implementation only knows CPU and CUDA: on
// another device linalg_eigvals.out (torch 1.13) hands device memory to LAPACK (a crash for
// complex input) or mixes devices (real input). Without autograd of their own (out= variants),
// they lose nothing by running whole on the CPU through the fallback.
TORCH_LIBRARY_IMPL(aten, PrivateUse1, m) {
  m.impl("linalg_eigvals.out", torch::CppFunction::makeFromBoxedFunction<&cpu_fallback>());
}

}  // namespace opweave
