// Device-side profiling: how long each DIOPI kernel ran ON THE DEVICE, not only on the host.
//
// While a profiling session records device timing (opweave.profiler.profile), every kernel
// launched on the instrumented path is bracketed by two vendor events on the stream it is
// queued on; the durations are resolved after the fact (eventElapsedTime), once the device
// has run the work, and placed on the host clock through a reference event recorded when the
// session started. Nothing is recorded and nothing is checked on the fast path when no
// session runs: the wrappers reach KernelTimer only through the already-instrumented slow
// path (the op's kOpProfile flag, set by the session), and the few hand-written launch sites
// (copies, fused Adam) pay one relaxed load of g_device_timing.
#ifndef OPWEAVE_PROFILER_H_
#define OPWEAVE_PROFILER_H_

#include <c10/core/Device.h>
#include <c10/macros/Macros.h>

#include <atomic>
#include <cstdint>

#include "opweave/vendor_seam.h"

namespace opweave {

extern std::atomic<bool> g_device_timing;
inline bool device_timing_on() { return g_device_timing.load(std::memory_order_relaxed); }

// Brackets the work queued on the current stream of `device` between its construction and
// its destruction (one kernel launch, with its staging copies). `kernel` and `aten` must be
// string literals or otherwise outlive the session (catalogue names do). A CPU `device`, or a
// session that is not running, makes it a no-op.
class KernelTimer {
 public:
  KernelTimer(const char* kernel, const char* aten, c10::Device device) {
    if (device.type() == c10::DeviceType::PrivateUse1 && device_timing_on()) {
      start(kernel, aten, device.index());
    }
  }
  ~KernelTimer() {
    if (slot_ >= 0) finish();
  }
  KernelTimer(const KernelTimer&) = delete;
  KernelTimer& operator=(const KernelTimer&) = delete;
  // The launch runs another kernel than the op's DIOPI function (a catalogue name).
  void rename(const char* kernel) noexcept;

 private:
  void start(const char* kernel, const char* aten, c10::DeviceIndex device);
  void finish() noexcept;

  KernelTimer* outer_ = nullptr;  // the launch this one is nested in, on this thread
  int64_t slot_ = -1;             // index of this launch's record in the session
  uint64_t generation_ = 0;       // the session it belongs to
  owStream_t stream_ = nullptr;
  uint64_t fallbacks_before_ = 0;  // CPU fallbacks of this thread before the launch
};

// A Python number passed by value runs the op's Scalar sibling kernel (by_value.h): the
// innermost launch this thread is timing takes that kernel's name. One relaxed load when no
// session runs.
void rename_timed_launch_slow(const char* kernel) noexcept;
inline void rename_timed_launch(const char* kernel) noexcept {
  if (C10_UNLIKELY(device_timing_on())) rename_timed_launch_slow(kernel);
}

// Session control (opweave.profiler, through torch.ops.opweave.*). start() synchronises every
// device and records the reference events; stop() synchronises again, resolves every launch
// and returns them as JSON; the events go back to a pool for the next session.
void device_timing_start();
std::string device_timing_stop();
bool device_timing_running();

// Registers the PrivateUse1 profiler stubs on torch 2.x (no-op on 1.13); called at load.
void register_profiler_stubs();

}  // namespace opweave

#endif  // OPWEAVE_PROFILER_H_
