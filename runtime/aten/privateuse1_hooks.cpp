// torch 2.x's PrivateUse1 hooks: what ATen asks of an out-of-tree device beyond its kernels.
//
// Registered when libopweave.so loads. They give the device a default generator
// (torch.<name>.manual_seed, kernels' generator arguments), new generators, pinned host memory
// (tensor.pin_memory(), DataLoader(pin_memory=True)), storage resizing, and make the device
// torch's current accelerator (torch.accelerator.*, is_privateuse1_backend_registered). On
// torch 1.13 there is no such interface and this file compiles to nothing.
#include "opweave/torch_compat.h"

#if OPWEAVE_TORCH_AT_LEAST(2, 0)

#include <ATen/core/GeneratorForPrivateuseone.h>
#include <ATen/detail/PrivateUse1HooksInterface.h>
#include <c10/core/Allocator.h>
#include <c10/core/StorageImpl.h>

#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>

#include "aten/internal.h"
#include "opweave/generator.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

// Page-locked host memory from the vendor (hostMallocPinned) or, for a vendor without it,
// ordinary aligned host memory: a copy from it is still correct, just not faster. Live blocks
// are kept in an address map so isPinnedPtr answers for any pointer into one.
class PinnedAllocator final : public c10::Allocator {
 public:
  c10::DataPtr allocate(size_t n) override {
    void* p = nullptr;
    if (n > 0) {
      if (seam().hostMallocPinned != nullptr) {
        check_seam(seam().hostMallocPinned(n, &p), "hostMallocPinned");
      } else {
        p = std::aligned_alloc(64, (n + 63) / 64 * 64);
        TORCH_CHECK(p != nullptr, "opweave: out of host memory pinning ", n, " bytes");
      }
      std::lock_guard<std::mutex> lock(mu_);
      live_[reinterpret_cast<uintptr_t>(p)] = n;
    }
    return {p, p, &PinnedAllocator::release, c10::Device(c10::DeviceType::CPU)};
  }
  c10::DeleterFnPtr raw_deleter() const override { return &PinnedAllocator::release; }
  void copy_data(void* dst, const void* src, std::size_t n) const override {
    std::memcpy(dst, src, n);
  }

  bool contains(const void* p) const {
    const auto a = reinterpret_cast<uintptr_t>(p);
    std::lock_guard<std::mutex> lock(mu_);
    auto it = live_.upper_bound(a);
    if (it == live_.begin()) return false;
    --it;
    return a < it->first + it->second;
  }

 private:
  static void release(void* p);
  mutable std::mutex mu_;
  std::map<uintptr_t, size_t> live_;
};

PinnedAllocator& pinned_allocator() {
  static auto* a = new PinnedAllocator();  // leaked: blocks may be freed during exit
  return *a;
}

void PinnedAllocator::release(void* p) {
  if (p == nullptr) return;
  {
    PinnedAllocator& a = pinned_allocator();
    std::lock_guard<std::mutex> lock(a.mu_);
    a.live_.erase(reinterpret_cast<uintptr_t>(p));
  }
  if (seam().hostFreePinned != nullptr) {
    seam().hostFreePinned(p);
  } else {
    std::free(p);
  }
}

class Hooks final : public at::PrivateUse1HooksInterface {
 public:
  const at::Generator& getDefaultGenerator(c10::DeviceIndex device) const override {
    return default_generator(device < 0 ? current_device() : device);
  }
  at::Generator getNewGenerator(c10::DeviceIndex device) const override;
  at::Device getDeviceFromPtr(void*) const override {
    // Device memory carries no device tag the runtime can read back; the current device is
    // where from_blob-style callers allocated it.
    return {c10::DeviceType::PrivateUse1, current_device()};
  }
  bool isPinnedPtr(const void* data) const override { return pinned_allocator().contains(data); }
  c10::Allocator* getPinnedMemoryAllocator() const override { return &pinned_allocator(); }
  bool hasPrimaryContext(c10::DeviceIndex) const override { return true; }
  c10::DeviceIndex deviceCount() const override {
    return static_cast<c10::DeviceIndex>(device_count());
  }
  void setCurrentDevice(c10::DeviceIndex device) const override { set_device(device); }
  c10::DeviceIndex getCurrentDevice() const override { return current_device(); }
  c10::DeviceIndex exchangeDevice(c10::DeviceIndex device) const override {
    const c10::DeviceIndex old = current_device();
    if (device != old) set_device(device);
    return old;
  }
  c10::DeviceIndex maybeExchangeDevice(c10::DeviceIndex device) const override {
    return exchangeDevice(device);
  }
  void resizePrivateUse1Bytes(const c10::Storage& storage, size_t nbytes) const override {
    resize_device_storage(storage.unsafeGetStorageImpl(), nbytes);
  }
};

[[maybe_unused]] const bool g_hooks_registered =
    (at::RegisterPrivateUse1HooksInterface(new Hooks()), true);

// torch.Generator(device=...) does not ask the hooks: 2.x keeps a separate factory.
at::Generator make_generator(c10::DeviceIndex device) {
  const c10::DeviceIndex d =
      checked_device_index(device < 0 ? current_device() : device, "torch.Generator");
  return at::make_generator<DeviceGenerator>(d, default_generator(d).current_seed());
}
REGISTER_GENERATOR_PRIVATEUSE1(make_generator)

at::Generator Hooks::getNewGenerator(c10::DeviceIndex device) const {
  return make_generator(device);
}

}  // namespace
}  // namespace opweave

#endif  // torch 2.x
