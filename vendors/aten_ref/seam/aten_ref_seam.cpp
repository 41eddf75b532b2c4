// Device-runtime seam of the reference vendor `aten_ref` (started from `make new-vendor`).
//
// One device whose "device memory" is host memory, synchronous streams (work is complete when
// a call returns, so synchronize and query have nothing to wait for) and events that hold a
// host timestamp. The kernels run ATen CPU kernels on that memory in the calling thread, as a
// native CPU op would: this keeps the device's own cost at zero, so benchmarks against native
// CPU see only what the OpWeave runtime and wrappers add.
#include <opweave/vendor_seam.h>

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>

namespace aten_ref_seam {
namespace {

constexpr int kDeviceCount = 1;
constexpr size_t kAlignment = 64;

thread_local int t_device = 0;
thread_local std::string t_error;

owStatus fail(owStatus status, const char* message) {
  t_error = message;
  return status;
}

bool valid_device(int index) { return index >= 0 && index < kDeviceCount; }

struct Stream {  // owStream_t: opaque to the runtime
  int device;
};
struct Event {  // owEvent_t
  std::chrono::steady_clock::time_point when;
};

Stream* as_stream(owStream_t s) { return reinterpret_cast<Stream*>(s); }
Event* as_event(owEvent_t e) { return reinterpret_cast<Event*>(e); }

// ---- devices
owStatus deviceCount(int* count) {
  if (count == nullptr) return fail(owInvalidValue, "deviceCount: null count");
  *count = kDeviceCount;
  return owSuccess;
}
owStatus setDevice(int index) {
  if (!valid_device(index)) return fail(owInvalidValue, "setDevice: no such device");
  t_device = index;
  return owSuccess;
}
owStatus getDevice(int* index) {
  if (index == nullptr) return fail(owInvalidValue, "getDevice: null index");
  *index = t_device;
  return owSuccess;
}
owStatus deviceSynchronize(int index) {
  if (!valid_device(index)) return fail(owInvalidValue, "deviceSynchronize: no such device");
  return owSuccess;  // synchronous streams: nothing is ever pending
}

// ---- memory (host memory standing in for device memory)
owStatus deviceMalloc(int device, size_t bytes, void** ptr) {
  if (!valid_device(device) || ptr == nullptr) return fail(owInvalidValue, "malloc: bad argument");
  if (bytes == 0) {
    *ptr = nullptr;
    return owSuccess;
  }
  const size_t rounded = (bytes + kAlignment - 1) / kAlignment * kAlignment;
  *ptr = std::aligned_alloc(kAlignment, rounded);
  return *ptr != nullptr ? owSuccess : fail(owOutOfMemory, "malloc: out of memory");
}
owStatus deviceFree(int device, void* ptr) {
  if (!valid_device(device)) return fail(owInvalidValue, "free: no such device");
  std::free(ptr);
  return owSuccess;
}
owStatus memsetAsync(void* ptr, int value, size_t bytes, owStream_t) {
  if (bytes != 0 && ptr == nullptr) return fail(owInvalidValue, "memsetAsync: null pointer");
  if (bytes != 0) std::memset(ptr, value, bytes);
  return owSuccess;
}
owStatus memcpyAsync(void* dst, const void* src, size_t bytes, owMemcpyKind, owStream_t) {
  if (bytes != 0 && (dst == nullptr || src == nullptr))
    return fail(owInvalidValue, "memcpyAsync: null pointer");
  if (bytes != 0) std::memmove(dst, src, bytes);
  return owSuccess;
}

// ---- streams (synchronous)
owStatus streamCreate(int device, owStream_t* stream) {
  if (!valid_device(device) || stream == nullptr)
    return fail(owInvalidValue, "streamCreate: bad argument");
  *stream = reinterpret_cast<owStream_t>(new Stream{device});
  return owSuccess;
}
owStatus streamDestroy(owStream_t stream) {
  delete as_stream(stream);
  return owSuccess;
}
owStatus streamSynchronize(owStream_t) { return owSuccess; }
owStatus streamQuery(owStream_t) { return owSuccess; }

// ---- events
owStatus eventCreate(owEvent_t* event) {
  if (event == nullptr) return fail(owInvalidValue, "eventCreate: null event");
  *event = reinterpret_cast<owEvent_t>(new Event{std::chrono::steady_clock::now()});
  return owSuccess;
}
owStatus eventDestroy(owEvent_t event) {
  delete as_event(event);
  return owSuccess;
}
owStatus eventRecord(owEvent_t event, owStream_t) {
  if (event == nullptr) return fail(owInvalidValue, "eventRecord: null event");
  as_event(event)->when = std::chrono::steady_clock::now();
  return owSuccess;
}
owStatus streamWaitEvent(owStream_t, owEvent_t) { return owSuccess; }
owStatus eventQuery(owEvent_t) { return owSuccess; }
owStatus eventSynchronize(owEvent_t) { return owSuccess; }
owStatus eventElapsedTime(float* ms, owEvent_t start, owEvent_t end) {
  if (ms == nullptr || start == nullptr || end == nullptr)
    return fail(owInvalidValue, "eventElapsedTime: bad argument");
  const auto elapsed = as_event(end)->when - as_event(start)->when;
  *ms = std::chrono::duration<float, std::milli>(elapsed).count();
  return owSuccess;
}

const char* lastError() { return t_error.c_str(); }

owVendorSeam make_seam() {
  owVendorSeam s{};  // zero-initialised: optional capabilities (pinned memory, peer copies) absent
  s.version = OW_SEAM_VERSION;
  s.struct_size = sizeof(owVendorSeam);
  s.name = "aten_ref";
  s.deviceCount = &deviceCount;
  s.setDevice = &setDevice;
  s.getDevice = &getDevice;
  s.deviceSynchronize = &deviceSynchronize;
  s.malloc = &deviceMalloc;
  s.free = &deviceFree;
  s.memsetAsync = &memsetAsync;
  s.memcpyAsync = &memcpyAsync;
  s.streamCreate = &streamCreate;
  s.streamDestroy = &streamDestroy;
  s.streamSynchronize = &streamSynchronize;
  s.streamQuery = &streamQuery;
  s.eventCreate = &eventCreate;
  s.eventDestroy = &eventDestroy;
  s.eventRecord = &eventRecord;
  s.streamWaitEvent = &streamWaitEvent;
  s.eventQuery = &eventQuery;
  s.eventSynchronize = &eventSynchronize;
  s.eventElapsedTime = &eventElapsedTime;
  s.lastError = &lastError;
  // Its kernels are ATen's CPU kernels on the calling thread: on torch 2.x the backward then
  // runs on the calling thread too, as native CPU's does (a second thread would only start a
  // second OpenMP team beside the first; see vendor_seam.h).
  s.flags = OW_SEAM_HOST_SYNCHRONOUS;
  return s;
}

}  // namespace
}  // namespace aten_ref_seam

extern "C" __attribute__((visibility("default"))) const owVendorSeam* owGetVendorSeam(void) {
  static const owVendorSeam seam = aten_ref_seam::make_seam();
  return &seam;
}
