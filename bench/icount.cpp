// Instruction counts per call of a fixed batch of device ops, for the CI gate
// (bench/icount.py). Run under `valgrind --tool=callgrind --instr-atstart=no`: this program
// switches instrumentation on after torch and the vendor are loaded and, for each case, zeroes
// the counters of every thread after the warm-up and dumps them after the timed loop under the
// case's name (the stream worker's and autograd's device thread's work included). Instruction
// counts, unlike times, repeat on a shared machine, so a regression of a few percent in the per-op
// path is visible. Outside valgrind the client requests are no-ops and the program only checks that
// every case runs.
//
// On sim, the 1-element op cases run with the stream's worker held (simStreamHold, see
// vendors/sim/seam/sim_hold.cpp) while the host queues them, then released: the count is that of
// a host running ahead of its device, the same in every run, instead of depending on whether
// the OS let the worker fall asleep between two ops.
#include <ATen/ATen.h>
#include <c10/core/CPUAllocator.h>
#include <dlfcn.h>
#include <valgrind/callgrind.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "icount_steps.h"
#include "opweave/allocator.h"
#include "opweave/op_registry.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace {

struct Case {
  const char* name;
  int calls;
  std::function<void()> fn;
  bool steady = false;  // queues device work only (no sync inside): may run with the worker held
};

// sim's stream hold (sim_hold.cpp), looked up in the loaded vendor library; absent elsewhere.
struct StreamHold {
  using HoldFn = owStatus (*)(owStream_t, void**);
  using ReleaseFn = owStatus (*)(void*);
  HoldFn hold = nullptr;
  ReleaseFn release = nullptr;

  explicit StreamHold(bool wanted) {
    if (!wanted) return;
    void* lib = dlopen(opweave::vendor_info().library.c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (lib == nullptr) return;
    hold = reinterpret_cast<HoldFn>(dlsym(lib, "simStreamHold"));
    release = reinterpret_cast<ReleaseFn>(dlsym(lib, "simStreamRelease"));
    if (hold == nullptr || release == nullptr) hold = nullptr, release = nullptr;
  }
  explicit operator bool() const { return hold != nullptr; }
};

void check(owStatus status, const char* what) {
  if (status != owSuccess) {
    std::fprintf(stderr, "icount: %s failed (%d)\n", what, static_cast<int>(status));
    std::exit(1);
  }
}

}  // namespace

// usage: opweave_icount [scale] [cpu]   (cpu: the same cases on native CPU, the yardstick)
int main(int argc, char** argv) {
  const int scale = argc > 1 ? std::max(1, std::atoi(argv[1])) : 1;
  const bool cpu = argc > 2 && std::string(argv[2]) == "cpu";
  const auto dev = cpu ? at::TensorOptions().device(at::kCPU)
                       : at::TensorOptions().device(c10::DeviceType::PrivateUse1, 0);
  at::Tensor a = at::ones({1}, dev), b = at::ones({1}, dev), out = at::ones({1}, dev);
  icount::MlpStep mlp(dev);
  icount::ConvStep conv(dev);
  icount::AttnStep attn(dev);
  at::Tensor number = c10::scalar_to_tensor(1.0);
  number.unsafeGetTensorImpl()->set_wrapped_number(true);
  // The caching allocator's allocate + free on its own (the memory checker's hooks sit on it);
  // on CPU, c10's CPU allocator as the yardstick.
  c10::Allocator* cpu_alloc = c10::GetCPUAllocator();
  auto alloc_free = [&] {
    c10::DataPtr p = cpu ? cpu_alloc->allocate(256) : opweave::allocate_on(0, 256);
  };
  const int n = 100 * scale;
  const std::vector<Case> cases = {
      {"add_out", n, [&] { at::add_out(out, a, b); }, true},
      {"add", n, [&] { (void)at::add(a, b); }, true},
      {"mul_", n, [&] { a.mul_(1.0); }, true},
      // Python's `x.mul_(1.0)`: mul_.Tensor with the number wrapped in a CPU 0-dim tensor.
      {"mul_number", n, [&] { a.mul_(number); }, true},
      {"relu", n, [&] { (void)at::relu(a); }, true},
      {"sum", n, [&] { (void)at::sum(a); }, true},
      // The CPU fallback's own cost (not a native kernel); on CPU the same add.out again.
      {"add_out_fallback", n, [&] { at::add_out(out, a, b); }},
      {"mlp_step", 5 * scale, [&] { mlp(); }},
      {"conv_step", 5 * scale, [&] { conv(); }},
      {"attn_step", 5 * scale, [&] { attn(); }},
      {"alloc_free", n, alloc_free},
  };
  const StreamHold stream_hold(!cpu);
  owEvent_t done = nullptr;
  if (stream_hold) check(opweave::seam().eventCreate(&done), "eventCreate");
  CALLGRIND_START_INSTRUMENTATION;
  for (const Case& c : cases) {
    const bool fallback = std::string(c.name) == "add_out_fallback";
    if (!cpu) opweave::set_fallback_ops(fallback ? "aten::add.out" : "");
    for (int i = 0; i < 3; ++i) c.fn();  // warm caches, allocator pools and first-call paths
    if (!cpu) opweave::synchronize_device();
    const owStream_t stream = cpu ? nullptr : opweave::current_native_stream(0);
    void* held = nullptr;
    if (stream_hold && c.steady) check(stream_hold.hold(stream, &held), "simStreamHold");
    // Other threads finish what the previous case left them before the counters are zeroed:
    // autograd's device thread frees the last backward's graph after the caller has returned,
    // and ATen's OpenMP workers spin a while after a parallel region. Without the pause that
    // tail landed in the next case or not as the OS scheduled the threads (aten_ref's
    // alloc_free: 405 instructions per call alone, 532 beside another valgrind run).
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
    CALLGRIND_ZERO_STATS;
    for (int i = 0; i < c.calls; ++i) c.fn();
    if (held != nullptr) {
      // Waiting on an event rather than the stream: a host asleep in a stream sync is woken
      // after every task the worker completes, one wake per op again.
      check(opweave::seam().eventRecord(done, stream), "eventRecord");
      check(stream_hold.release(held), "simStreamRelease");
      check(opweave::seam().eventSynchronize(done), "eventSynchronize");
    } else if (!cpu) {
      opweave::synchronize_device();
    }
    const std::string label = std::string(c.name) + " calls=" + std::to_string(c.calls);
    CALLGRIND_DUMP_STATS_AT(label.c_str());
    std::printf("%s ok\n", label.c_str());
  }
  if (!cpu) opweave::set_fallback_ops("");
  if (done != nullptr) check(opweave::seam().eventDestroy(done), "eventDestroy");
  return 0;
}
