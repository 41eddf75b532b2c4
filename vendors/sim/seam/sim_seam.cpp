// The sim's device-runtime seam: the function table the OpWeave runtime loads.
#include <cstdlib>
#include <cstring>
#include <string>
#include <tuple>

#include "opweave/vendor_seam.h"
#include "sim_internal.h"
#include "sim_memory.h"
#include "sim_stream.h"
#include "sim_stream_impl.h"

namespace sim {
namespace {

thread_local int t_current_device = 0;

bool valid_device(int d) { return d >= 0 && d < kDeviceCount; }

owStatus device_count(int* count) {
  if (count == nullptr) return fail(owInvalidValue, "deviceCount: count is NULL");
  *count = kDeviceCount;
  return owSuccess;
}

owStatus set_device(int index) {
  if (!valid_device(index))
    return fail(owInvalidValue, "setDevice: invalid device " + std::to_string(index));
  t_current_device = index;
  return owSuccess;
}

owStatus get_device(int* index) {
  if (index == nullptr) return fail(owInvalidValue, "getDevice: index is NULL");
  *index = t_current_device;
  return owSuccess;
}

owStatus sim_malloc(int device, size_t bytes, void** ptr) { return mem_alloc(device, bytes, ptr); }
owStatus sim_free(int device, void* ptr) { return mem_free(device, ptr); }

// Device memory must belong to the stream's device: the copy engines are per device.
owStatus check_on_stream_device(const void* p, owStream_t stream, const char* what) {
  if (device_of(p) != stream_device(stream)) {
    return fail(owInvalidValue, std::string(what) + ": device memory of device " +
                                    std::to_string(device_of(p)) + " used on a stream of device " +
                                    std::to_string(stream_device(stream)));
  }
  return owSuccess;
}

owStatus memset_async(void* ptr, int value, size_t bytes, owStream_t stream) {
  if (stream == nullptr) return fail(owInvalidValue, "memsetAsync: stream is NULL");
  if (bytes == 0) return owSuccess;
  owStatus st = mem_check_range(ptr, bytes, "memsetAsync");
  if (st == owSuccess) st = check_on_stream_device(ptr, stream, "memsetAsync");
  if (st != owSuccess) return st;
  unsigned char* p = host_ptr<unsigned char>(ptr);
  return enqueue(
      stream, [p, value, bytes] { std::memset(p, value, bytes); }, true);
}

owStatus memcpy_async(void* dst, const void* src, size_t bytes, owMemcpyKind kind,
                      owStream_t stream) {
  if (stream == nullptr) return fail(owInvalidValue, "memcpyAsync: stream is NULL");
  if (bytes == 0) return owSuccess;
  const bool dst_dev = kind != owMemcpyDeviceToHost;
  const bool src_dev = kind != owMemcpyHostToDevice;
  if (kind != owMemcpyHostToDevice && kind != owMemcpyDeviceToHost &&
      kind != owMemcpyDeviceToDevice) {
    return fail(owInvalidValue, "memcpyAsync: invalid kind " + std::to_string(kind));
  }
  for (auto [p, on_dev, what] :
       {std::tuple<const void*, bool, const char*>{dst, dst_dev, "memcpyAsync dst"},
        {src, src_dev, "memcpyAsync src"}}) {
    if (on_dev) {
      owStatus st = mem_check_range(p, bytes, what);
      if (st == owSuccess) st = check_on_stream_device(p, stream, what);
      if (st != owSuccess) return st;
    } else if (is_device_ptr(p) || p == nullptr) {
      return fail(owInvalidValue, std::string(what) + ": expected a host address for this kind");
    }
  }
  auto* d = host_ptr<unsigned char>(dst);
  const auto* s = host_ptr<const unsigned char>(src);
  return enqueue(
      stream, [d, s, bytes] { std::memmove(d, s, bytes); }, true);
}

owStatus memcpy_peer_async(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                           owStream_t stream) {
  if (stream == nullptr) return fail(owInvalidValue, "memcpyPeerAsync: stream is NULL");
  if (bytes == 0) return owSuccess;
  if (device_of(dst) != dst_device || device_of(src) != src_device) {
    return fail(owInvalidValue, "memcpyPeerAsync: pointers do not match the device indices");
  }
  owStatus st = mem_check_range(dst, bytes, "memcpyPeerAsync dst");
  if (st == owSuccess) st = mem_check_range(src, bytes, "memcpyPeerAsync src");
  if (st != owSuccess) return st;
  auto* d = host_ptr<unsigned char>(dst);
  const auto* s = host_ptr<const unsigned char>(src);
  return enqueue(
      stream, [d, s, bytes] { std::memmove(d, s, bytes); }, true);
}

owStatus host_malloc_pinned(size_t bytes, void** ptr) {
  if (ptr == nullptr) return fail(owInvalidValue, "hostMallocPinned: ptr is NULL");
  *ptr = bytes == 0 ? nullptr : std::aligned_alloc(256, (bytes + 255) / 256 * 256);
  return (bytes == 0 || *ptr != nullptr) ? owSuccess
                                         : fail(owOutOfMemory, "hostMallocPinned: out of memory");
}

owStatus host_free_pinned(void* ptr) {
  std::free(ptr);
  return owSuccess;
}

owVendorSeam make_seam() {
  owVendorSeam s{};
  s.version = OW_SEAM_VERSION;
  s.struct_size = sizeof(owVendorSeam);
  s.name = "sim";
  s.deviceCount = device_count;
  s.setDevice = set_device;
  s.getDevice = get_device;
  s.deviceSynchronize = device_synchronize;
  s.malloc = sim_malloc;
  s.free = sim_free;
  s.memsetAsync = memset_async;
  s.memcpyAsync = memcpy_async;
  s.streamCreate = stream_create;
  s.streamDestroy = stream_destroy;
  s.streamSynchronize = stream_synchronize;
  s.streamQuery = stream_query;
  s.eventCreate = event_create;
  s.eventDestroy = event_destroy;
  s.eventRecord = event_record;
  s.streamWaitEvent = stream_wait_event;
  s.eventQuery = event_query;
  s.eventSynchronize = event_synchronize;
  s.eventElapsedTime = event_elapsed_time;
  s.lastError = last_error;
  s.hostMallocPinned = host_malloc_pinned;
  s.hostFreePinned = host_free_pinned;
  s.memcpyPeerAsync = memcpy_peer_async;
  s.streamBeginBatch = stream_begin_batch;
  s.streamEndBatch = stream_end_batch;
  return s;
}

}  // namespace
}  // namespace sim

extern "C" __attribute__((visibility("default"))) const owVendorSeam* owGetVendorSeam(void) {
  static const owVendorSeam seam = [] {
    sim::apply_blas_threads();
    return sim::make_seam();
  }();
  return &seam;
}
