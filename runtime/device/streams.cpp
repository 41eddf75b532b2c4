// Current device, per-device stream tables and per-thread current streams.
#include <c10/util/Exception.h>

#include <atomic>
#include <mutex>

#include "opweave/stream.h"
#include "opweave/vendor.h"

namespace opweave {
namespace {

// Written once per (device, id) under g_create_mu, read lock-free afterwards.
std::atomic<owStream_t> g_streams[kMaxDevices][kStreamsPerDevice];
std::mutex g_create_mu;
std::atomic<uint32_t> g_pool_cursor[kMaxDevices];

// Initial-exec (one load from the static TLS block): every op reads both; a shared library's
// default TLS access is a __tls_get_addr call. The static block's room for libraries loaded
// with dlopen is small (glibc's surplus), hence a byte per device and stream id.
__attribute__((tls_model("initial-exec"))) thread_local c10::DeviceIndex t_device = 0;
static_assert(kStreamsPerDevice <= 256, "t_stream holds a stream id in a byte");
// Zero-initialised: the default stream.
__attribute__((tls_model("initial-exec"))) thread_local uint8_t t_stream[kMaxDevices];

constexpr c10::DeviceType kType = c10::DeviceType::PrivateUse1;

c10::Stream make_stream(c10::DeviceIndex device, c10::StreamId id) {
  return c10::Stream(c10::Stream::UNSAFE, c10::Device(kType, device), id);
}

owStream_t create_stream(c10::DeviceIndex device, c10::StreamId id) {
  std::lock_guard<std::mutex> lock(g_create_mu);
  owStream_t s = g_streams[device][id].load(std::memory_order_acquire);
  if (s == nullptr) {
    check_seam(seam().streamCreate(device, &s), "streamCreate");
    g_streams[device][id].store(s, std::memory_order_release);
  }
  return s;
}

void check_stream(const c10::Stream& stream) {
  TORCH_CHECK(stream.device_type() == kType, "opweave: expected a ",
              c10::DeviceTypeName(kType, true), " stream, got ", stream);
  checked_device_index(stream.device_index(), "opweave stream");
  TORCH_CHECK(stream.id() >= 0 && stream.id() < kStreamsPerDevice, "opweave: invalid stream id ",
              stream.id());
}

}  // namespace

c10::DeviceIndex current_device() noexcept { return t_device; }

c10::DeviceIndex checked_device_index(c10::DeviceIndex index, const char* op) {
  if (index < 0) index = t_device;
  if (C10_UNLIKELY(index >= device_count())) {
    seam();  // no vendor: report the load error instead
    TORCH_CHECK(false, op, ": device index ", static_cast<int>(index), " is out of range: vendor '",
                vendor_info().name, "' has ", device_count(), " device(s) (",
                c10::DeviceTypeName(kType, /*lower_case=*/true), ":0..", device_count() - 1, ")");
  }
  return index;
}

void set_device(c10::DeviceIndex index) {
  index = checked_device_index(index, "set_device");
  if (index == t_device) return;
  check_seam(seam().setDevice(index), "setDevice");
  t_device = index;
}

c10::Stream current_stream(c10::DeviceIndex device) {
  device = device < 0 ? t_device : device;
  return make_stream(device, device < kMaxDevices ? t_stream[device] : 0);
}

c10::Stream default_stream(c10::DeviceIndex device) {
  return make_stream(device < 0 ? t_device : device, 0);
}

c10::Stream stream_from_pool(c10::DeviceIndex device) {
  device = checked_device_index(device, "stream_from_pool");
  const uint32_t n = g_pool_cursor[device].fetch_add(1, std::memory_order_relaxed);
  return make_stream(device, 1 + static_cast<c10::StreamId>(n % (kStreamsPerDevice - 1)));
}

c10::Stream exchange_stream(const c10::Stream& stream) {
  check_stream(stream);
  const c10::DeviceIndex d = stream.device_index();
  c10::Stream previous = make_stream(d, t_stream[d]);
  t_stream[d] = static_cast<uint8_t>(stream.id());
  return previous;
}

owStream_t native_stream(const c10::Stream& stream) {
  check_stream(stream);
  owStream_t s = g_streams[stream.device_index()][stream.id()].load(std::memory_order_acquire);
  return s != nullptr ? s : create_stream(stream.device_index(), stream.id());
}

owStream_t current_native_stream(c10::DeviceIndex device) {
  const c10::StreamId id = t_stream[device];
  owStream_t s = g_streams[device][id].load(std::memory_order_acquire);
  return C10_LIKELY(s != nullptr) ? s : create_stream(device, id);
}

void synchronize_stream(const c10::Stream& stream) {
  check_seam(seam().streamSynchronize(native_stream(stream)), "streamSynchronize");
}

bool query_stream(const c10::Stream& stream) {
  const owStatus st = seam().streamQuery(native_stream(stream));
  if (st == owNotReady) return false;
  check_seam(st, "streamQuery");
  return true;
}

void synchronize_device(c10::DeviceIndex device) {
  device = checked_device_index(device, "synchronize");
  check_seam(seam().deviceSynchronize(device), "deviceSynchronize");
}

}  // namespace opweave
