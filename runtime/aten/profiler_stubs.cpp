// torch 2.x's own device-timing hook for an out-of-tree backend: the PrivateUse1 ProfilerStubs
// (torch/csrc/profiler/stubs/base.h), the interface CUDA's legacy profiler path uses.
//
// When torch's kineto build has no PrivateUse1 activity (Debian's 2.6 supports CPU only),
// torch.profiler.profile(activities=[CPU, PrivateUse1]) and
// torch.autograd.profiler.profile(use_device="<device>") run in KINETO_PRIVATEUSE1_FALLBACK
// mode: at the entry and exit of EVERY profiled op torch calls record() here, and afterwards
// elapsed() gives the device time between the two, attached to the op. We record a vendor
// event on the current stream of the current device; elapsed() returns microseconds, as
// CUDA's stubs do. torch 1.13 has no such hook (CUDA stubs only): opweave.profiler's own
// launch events (profiler.cpp) serve both versions.
#include <c10/util/Exception.h>
#include <time.h>

#include "opweave/profiler.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"

#if __has_include(<torch/csrc/profiler/stubs/base.h>)
#include <torch/csrc/profiler/stubs/base.h>
#define OPWEAVE_HAS_PROFILER_STUBS 1
#endif

namespace opweave {

#ifdef OPWEAVE_HAS_PROFILER_STUBS
namespace {

using torch::profiler::impl::ProfilerVoidEventStub;

struct DeviceStubs final : torch::profiler::impl::ProfilerStubs {
  // Called from torch's profiler callbacks, which must not throw: a failure leaves the event
  // empty, and elapsed() then reports 0 (no device time) for that op.
  void record(c10::DeviceIndex* device, ProfilerVoidEventStub* event,
              int64_t* cpu_ns) const override {
    const c10::DeviceIndex d = current_device();
    if (device != nullptr) *device = d;
    if (cpu_ns != nullptr) {
      timespec t{};
      clock_gettime(CLOCK_REALTIME, &t);  // torch's profiler clock (c10::getTime)
      *cpu_ns = static_cast<int64_t>(t.tv_sec) * 1000000000 + t.tv_nsec;
    }
    if (g_seam == nullptr || event == nullptr) return;
    owEvent_t e = nullptr;
    if (g_seam->eventCreate(&e) != owSuccess) return;
    *event =
        ProfilerVoidEventStub(e, [](void* p) { g_seam->eventDestroy(static_cast<owEvent_t>(p)); });
    try {
      if (g_seam->eventRecord(e, current_native_stream(d)) != owSuccess) event->reset();
    } catch (...) {
      event->reset();
    }
  }

  float elapsed(const ProfilerVoidEventStub* start,
                const ProfilerVoidEventStub* end) const override {
    if (start == nullptr || end == nullptr || !*start || !*end) return 0;
    const auto a = static_cast<owEvent_t>(start->get());
    const auto b = static_cast<owEvent_t>(end->get());
    float ms = 0;
    if (g_seam->eventSynchronize(b) != owSuccess ||
        g_seam->eventElapsedTime(&ms, a, b) != owSuccess) {
      return 0;
    }
    return ms * 1000.0f;
  }

  void mark(const char*) const override {}
  void rangePush(const char*) const override {}
  void rangePop() const override {}
  bool enabled() const override { return g_seam != nullptr; }

  void onEachDevice(std::function<void(int)> op) const override {
    const c10::DeviceIndex previous = current_device();
    for (int d = 0; d < device_count(); ++d) {
      set_device(static_cast<c10::DeviceIndex>(d));
      op(d);
    }
    set_device(previous);
  }

  void synchronize() const override {
    for (int d = 0; d < device_count(); ++d) synchronize_device(static_cast<c10::DeviceIndex>(d));
  }
};

}  // namespace

void register_profiler_stubs() {
  static DeviceStubs stubs;
  torch::profiler::impl::registerPrivateUse1Methods(&stubs);
}
#else
void register_profiler_stubs() {}
#endif

namespace {
// At load: registering only stores a pointer torch calls in the fallback mode above.
[[maybe_unused]] const bool g_registered = (register_profiler_stubs(), true);
}  // namespace

}  // namespace opweave
