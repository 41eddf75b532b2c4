// Device memory of the sim: host RAM behind tagged addresses, a per-device capacity, and (with
// OPWEAVE_SIM_DEBUG=1) poisoned contents plus guard bytes that are checked on free.
#include "sim_memory.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <sstream>

#include "sim_internal.h"

namespace sim {
namespace {

constexpr size_t kAlign = 256;  // what real accelerators guarantee; keeps vector loads aligned
constexpr size_t kGuard = 256;  // guard bytes on each side in debug mode (a multiple of kAlign)
constexpr unsigned char kFreshPoison = 0xCD;
constexpr unsigned char kFreedPoison = 0xDD;
constexpr unsigned char kGuardByte = 0xFD;

struct Allocation {
  int device;
  size_t bytes;
  unsigned char* raw;  // start of the host block (guard included)
};

struct Heap {
  std::mutex mu;
  std::map<uintptr_t, Allocation> live;  // keyed by the host address of the user region
  size_t used[kDeviceCount] = {};
};

Heap& heap() {
  static Heap* h = new Heap();  // leaked: streams may still free during process exit
  return *h;
}

size_t round_up(size_t n, size_t a) { return (n + a - 1) / a * a; }

std::string hex(const void* p) {
  std::ostringstream os;
  os << p;
  return os.str();
}

// Number of guard bytes that no longer hold kGuardByte.
size_t damaged_guard_bytes(const unsigned char* guard) {
  size_t damaged = 0;
  for (size_t i = 0; i < kGuard; ++i) damaged += guard[i] != kGuardByte;
  return damaged;
}

}  // namespace

owStatus mem_alloc(int device, size_t bytes, void** ptr) {
  if (ptr == nullptr) return fail(owInvalidValue, "sim malloc: ptr is NULL");
  if (device < 0 || device >= kDeviceCount) {
    return fail(owInvalidValue, "sim malloc: invalid device " + std::to_string(device));
  }
  *ptr = nullptr;
  if (bytes == 0) return owSuccess;
  const Config& cfg = config();
  const size_t guard = cfg.debug ? kGuard : 0;
  Heap& h = heap();
  std::lock_guard<std::mutex> lock(h.mu);
  if (bytes > cfg.capacity || h.used[device] > cfg.capacity - bytes) {
    return fail(owOutOfMemory, "sim device " + std::to_string(device) +
                                   " out of memory: " + std::to_string(bytes) +
                                   " bytes requested, " + std::to_string(h.used[device]) + " of " +
                                   std::to_string(cfg.capacity) + " in use");
  }
  auto* raw =
      static_cast<unsigned char*>(std::aligned_alloc(kAlign, round_up(bytes + 2 * guard, kAlign)));
  if (raw == nullptr) return fail(owOutOfMemory, "sim malloc: host allocation failed");
  unsigned char* user = raw + guard;
  if (cfg.debug) {
    std::memset(raw, kGuardByte, guard);
    std::memset(user, kFreshPoison, bytes);
    std::memset(user + bytes, kGuardByte, guard);
  }
  h.live.emplace(reinterpret_cast<uintptr_t>(user), Allocation{device, bytes, raw});
  h.used[device] += bytes;
  *ptr = device_ptr(user, device);
  return owSuccess;
}

owStatus mem_free(int device, void* ptr) {
  if (ptr == nullptr) return owSuccess;
  if (device_of(ptr) != device) {
    return fail(owInvalidValue,
                "sim free: " + hex(ptr) + " is not an address of device " + std::to_string(device));
  }
  // Like a real driver, free waits for the device: queued work may still use the memory.
  owStatus st = device_synchronize(device);
  if (st != owSuccess) return st;
  auto* user = host_ptr<unsigned char>(ptr);
  Allocation a;
  {
    Heap& h = heap();
    std::lock_guard<std::mutex> lock(h.mu);
    auto it = h.live.find(reinterpret_cast<uintptr_t>(user));
    if (it == h.live.end()) {
      return fail(owInvalidValue, "sim free: " + hex(ptr) +
                                      " is not the start of a live allocation (double free?)");
    }
    a = it->second;
    h.live.erase(it);
    h.used[device] -= a.bytes;
  }
  st = owSuccess;
  if (config().debug) {
    const size_t before = damaged_guard_bytes(a.raw);
    const size_t after = damaged_guard_bytes(user + a.bytes);
    if (before != 0 || after != 0) {
      const std::string msg =
          "sim memory corruption on device " + std::to_string(device) + ": allocation " + hex(ptr) +
          " of " + std::to_string(a.bytes) + " bytes has " + std::to_string(before) +
          " damaged guard bytes before and " + std::to_string(after) + " after it";
      std::fprintf(stderr, "[opweave-sim] %s\n", msg.c_str());
      st = fail(owError, msg);
    }
    std::memset(a.raw, kFreedPoison, a.bytes + 2 * kGuard);
  }
  std::free(a.raw);
  return st;
}

owStatus mem_check_range(const void* ptr, size_t bytes, const char* what) {
  if (bytes == 0) return owSuccess;
  if (!is_device_ptr(ptr)) {
    return fail(owInvalidValue, std::string(what) + ": " + hex(ptr) + " is not a device address");
  }
  const uintptr_t start = reinterpret_cast<uintptr_t>(host_ptr(ptr));
  Heap& h = heap();
  std::lock_guard<std::mutex> lock(h.mu);
  auto it = h.live.upper_bound(start);
  if (it != h.live.begin()) {
    --it;
    const Allocation& a = it->second;
    if (a.device == device_of(ptr) && start + bytes <= it->first + a.bytes &&
        start + bytes > start) {
      return owSuccess;
    }
  }
  return fail(owInvalidValue, std::string(what) + ": [" + hex(ptr) + ", +" + std::to_string(bytes) +
                                  ") is outside every live allocation of device " +
                                  std::to_string(device_of(ptr)));
}

size_t mem_used(int device) {
  Heap& h = heap();
  std::lock_guard<std::mutex> lock(h.mu);
  return h.used[device];
}

}  // namespace sim
