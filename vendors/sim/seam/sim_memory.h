// Device address space of the simulated accelerator.
//
// Device memory lives in host RAM, but the addresses the sim hands out are tagged so that the
// host cannot dereference them by accident (they are non-canonical on x86-64 and outside the
// 48-bit user range on AArch64): any code that touches device memory without going through the
// seam crashes instead of silently "working". Kernels running on a sim stream translate with
// sim::host_ptr() right before they touch memory.
#ifndef OPWEAVE_SIM_MEMORY_H_
#define OPWEAVE_SIM_MEMORY_H_

#include <cstddef>
#include <cstdint>

namespace sim {

constexpr int kMaxDevices = 8;
constexpr int kAddressShift = 48;
constexpr uintptr_t kAddressMask = (uintptr_t{1} << kAddressShift) - 1;
constexpr uintptr_t kTagBase = 0x10;  // tag = kTagBase + device, stored in bits 48..55

// True for an address produced by the sim's malloc (or an interior pointer of one).
inline bool is_device_ptr(const void* p) {
  const uintptr_t tag = (reinterpret_cast<uintptr_t>(p) >> kAddressShift) & 0xff;
  return tag >= kTagBase && tag < kTagBase + kMaxDevices;
}

// Device index of a device address, -1 for a host address.
inline int device_of(const void* p) {
  if (!is_device_ptr(p)) return -1;
  return static_cast<int>(((reinterpret_cast<uintptr_t>(p) >> kAddressShift) & 0xff) - kTagBase);
}

// Host view of a device address; host addresses pass through unchanged.
template <typename T = void>
inline T* host_ptr(const void* p) {
  if (!is_device_ptr(p)) return static_cast<T*>(const_cast<void*>(p));
  return reinterpret_cast<T*>(reinterpret_cast<uintptr_t>(p) & kAddressMask);
}

// Device address of host memory owned by device `device` (used by the sim allocator only).
inline void* device_ptr(void* host, int device) {
  return reinterpret_cast<void*>(reinterpret_cast<uintptr_t>(host) |
                                 ((kTagBase + static_cast<uintptr_t>(device)) << kAddressShift));
}

}  // namespace sim

#endif  // OPWEAVE_SIM_MEMORY_H_
