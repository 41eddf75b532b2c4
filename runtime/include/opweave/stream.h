// Current device and streams of the opweave device (PrivateUse1), per host thread.
//
// Stream ids: 0 is the default stream of a device; 1..kStreamsPerDevice-1 form a pool handed
// out round-robin (as CUDA does). Vendor streams are created lazily on first use and live for
// the whole process. The current device and the current stream per device are thread-local,
// so reading them takes no lock.
#ifndef OPWEAVE_STREAM_H_
#define OPWEAVE_STREAM_H_

#include <c10/core/Device.h>
#include <c10/core/Stream.h>

#include "opweave/vendor_seam.h"

namespace opweave {

constexpr int kStreamsPerDevice = 32;

// The calling thread's current device (0 initially).
c10::DeviceIndex current_device() noexcept;
// Validates `index` and makes it current for the calling thread.
void set_device(c10::DeviceIndex index);
// `index`, or the current device when it is -1; throws "<op>: ..." when out of range.
c10::DeviceIndex checked_device_index(c10::DeviceIndex index, const char* op);

// device -1 means the current device.
c10::Stream current_stream(c10::DeviceIndex device = -1);
c10::Stream default_stream(c10::DeviceIndex device = -1);
c10::Stream stream_from_pool(c10::DeviceIndex device = -1);
// Makes `stream` current for its device on the calling thread; returns the previous one.
c10::Stream exchange_stream(const c10::Stream& stream);

// Vendor handle of a stream (created on first use).
owStream_t native_stream(const c10::Stream& stream);
// Vendor handle of the current stream of `device` (a valid index): the per-op hot path.
owStream_t current_native_stream(c10::DeviceIndex device);

void synchronize_stream(const c10::Stream& stream);
bool query_stream(const c10::Stream& stream);
void synchronize_device(c10::DeviceIndex device = -1);

}  // namespace opweave

#endif  // OPWEAVE_STREAM_H_
