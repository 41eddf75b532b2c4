// c10's device guard for PrivateUse1: current device, streams and events through the seam.
// This is what makes c10::DeviceGuard, c10::Stream and c10::Event work on the opweave device.
#include <c10/core/impl/DeviceGuardImplInterface.h>

#include "opweave/allocator.h"
#include "opweave/stream.h"
#include "opweave/torch_compat.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;

struct GuardImpl final : public c10::impl::DeviceGuardImplInterface {
  c10::DeviceType type() const override { return kType; }

  c10::Device exchangeDevice(c10::Device d) const override {
    TORCH_CHECK(d.type() == kType, "opweave guard: expected a ", c10::DeviceTypeName(kType, true),
                " device, got ", d);
    const c10::DeviceIndex old = current_device();
    if (d.index() != old) set_device(d.index());
    return c10::Device(kType, old);
  }

  c10::Device getDevice() const override { return c10::Device(kType, current_device()); }

  void setDevice(c10::Device d) const override {
    TORCH_CHECK(d.type() == kType, "opweave guard: expected a ", c10::DeviceTypeName(kType, true),
                " device, got ", d);
    set_device(d.index());
  }

  void uncheckedSetDevice(c10::Device d) const noexcept override {
    try {
      set_device(d.index());
    } catch (...) {
      // Only used to restore a device that was valid before: nothing sensible to do.
    }
  }

  c10::Stream getStream(c10::Device d) const noexcept override { return current_stream(d.index()); }

  c10::Stream getDefaultStream(c10::Device d) const override { return default_stream(d.index()); }

  c10::Stream getStreamFromGlobalPool(c10::Device d, bool) const override {
    return stream_from_pool(d.index());
  }

  c10::Stream exchangeStream(c10::Stream s) const noexcept override {
    try {
      return exchange_stream(s);
    } catch (...) {
      return current_stream(s.device_index());
    }
  }

  void destroyEvent(void* event, const c10::DeviceIndex) const noexcept override {
    if (event != nullptr && g_seam != nullptr) g_seam->eventDestroy(static_cast<owEvent_t>(event));
  }

  void record(void** event, const c10::Stream& stream, const c10::DeviceIndex device_index,
              const c10::EventFlag) const override {
    TORCH_CHECK(device_index == -1 || device_index == stream.device_index(),
                "opweave: event of device ", static_cast<int>(device_index),
                " recorded on a stream of device ", static_cast<int>(stream.device_index()));
    auto ev = static_cast<owEvent_t>(*event);
    if (ev == nullptr) check_seam(seam().eventCreate(&ev), "eventCreate");
    *event = ev;
    check_seam(seam().eventRecord(ev, native_stream(stream)), "eventRecord");
  }

  void block(void* event, const c10::Stream& stream) const override {
    if (event == nullptr) return;  // never recorded: nothing to wait for
    check_seam(seam().streamWaitEvent(native_stream(stream), static_cast<owEvent_t>(event)),
               "streamWaitEvent");
  }

  bool queryEvent(void* event) const override {
    if (event == nullptr) return true;
    const owStatus st = seam().eventQuery(static_cast<owEvent_t>(event));
    if (st == owNotReady) return false;
    check_seam(st, "eventQuery");
    return true;
  }

  c10::DeviceIndex deviceCount() const noexcept override {
    return static_cast<c10::DeviceIndex>(device_count());
  }

  bool queryStream(const c10::Stream& stream) const override { return query_stream(stream); }

  void synchronizeStream(const c10::Stream& stream) const override { synchronize_stream(stream); }

  void recordDataPtrOnStream(const c10::DataPtr& data, const c10::Stream& stream) const override {
    record_stream(data, stream);
  }

  // Virtuals torch 2.x added: torch.Stream(device=...), torch.Event.synchronize /
  // elapsed_time and torch.accelerator.synchronize go through them.
  c10::Stream getNewStream(c10::Device d, int) const OPWEAVE_OVERRIDE_2X {
    return stream_from_pool(d.index());
  }
  void synchronizeEvent(void* event) const OPWEAVE_OVERRIDE_2X {
    if (event == nullptr) return;
    check_seam(seam().eventSynchronize(static_cast<owEvent_t>(event)), "eventSynchronize");
  }
  void synchronizeDevice(const c10::DeviceIndex device) const OPWEAVE_OVERRIDE_2X {
    synchronize_device(device);
  }
  double elapsedTime(void* start, void* end, const c10::DeviceIndex) const OPWEAVE_OVERRIDE_2X {
    TORCH_CHECK(start != nullptr && end != nullptr,
                "opweave: elapsed_time needs two recorded events");
    float ms = 0.f;
    check_seam(
        seam().eventElapsedTime(&ms, static_cast<owEvent_t>(start), static_cast<owEvent_t>(end)),
        "eventElapsedTime");
    return ms;
  }
};

C10_REGISTER_GUARD_IMPL(PrivateUse1, GuardImpl);

}  // namespace
}  // namespace opweave
