// Device-runtime seam of vendor `cuda`: OpWeave's device seam on the CUDA runtime.
//
// Scaffolded by `make new-vendor`, then each host-memory default was replaced by its CUDA call.
// An owStream_t is a cudaStream_t and an owEvent_t a cudaEvent_t, so kernels launch on the
// stream diopiGetStream hands them without a lookup. Device memory comes from cudaMalloc; the
// runtime's caching allocator sits above this seam and calls malloc/free rarely.
//
// Without a usable GPU (no device, no driver) deviceCount fails with CUDA's own message, so the
// runtime reports "vendor deviceCount failed: ..." at import instead of failing per op.
#include <cuda_runtime.h>
#include <opweave/vendor_seam.h>

#include <string>

namespace cuda_seam {
namespace {

thread_local std::string t_error;

owStatus fail(owStatus status, const std::string& message) {
  t_error = message;
  return status;
}

// Maps a CUDA error to the seam's status, recording "<what>: <CUDA's message> (<name>)".
owStatus check(cudaError_t err, const char* what) {
  if (err == cudaSuccess) return owSuccess;
  if (err == cudaErrorNotReady) {
    (void)cudaGetLastError();  // not-ready is not sticky, but clear it for the next launch check
    return owNotReady;
  }
  (void)cudaGetLastError();
  const owStatus status = err == cudaErrorMemoryAllocation ? owOutOfMemory
                          : err == cudaErrorInvalidValue || err == cudaErrorInvalidDevice
                              ? owInvalidValue
                              : owError;
  return fail(status, std::string(what) + ": " + cudaGetErrorString(err) + " (" +
                          cudaGetErrorName(err) + ")");
}

cudaStream_t as_stream(owStream_t s) { return reinterpret_cast<cudaStream_t>(s); }
cudaEvent_t as_event(owEvent_t e) { return reinterpret_cast<cudaEvent_t>(e); }

// Runs `body` with `device` current on this thread, restoring the caller's device after.
template <class F>
owStatus on_device(int device, const char* what, F&& body) {
  int previous = 0;
  owStatus st = check(cudaGetDevice(&previous), what);
  if (st != owSuccess) return st;
  if (previous != device) {
    st = check(cudaSetDevice(device), what);
    if (st != owSuccess) return st;
  }
  st = check(body(), what);
  if (previous != device) (void)cudaSetDevice(previous);
  return st;
}

// ---- devices
owStatus deviceCount(int* count) {
  if (count == nullptr) return fail(owInvalidValue, "deviceCount: null count");
  *count = 0;
  const owStatus st = check(cudaGetDeviceCount(count), "cudaGetDeviceCount");
  if (st == owSuccess && *count == 0) return fail(owError, "cudaGetDeviceCount: no CUDA device");
  return st;
}
owStatus setDevice(int index) { return check(cudaSetDevice(index), "cudaSetDevice"); }
owStatus getDevice(int* index) {
  if (index == nullptr) return fail(owInvalidValue, "getDevice: null index");
  return check(cudaGetDevice(index), "cudaGetDevice");
}
owStatus deviceSynchronize(int index) {
  return on_device(index, "cudaDeviceSynchronize", [] { return cudaDeviceSynchronize(); });
}

// ---- memory
owStatus malloc_(int device, size_t bytes, void** ptr) {
  if (ptr == nullptr) return fail(owInvalidValue, "malloc: null result pointer");
  *ptr = nullptr;
  if (bytes == 0) return owSuccess;
  return on_device(device, "cudaMalloc", [&] { return cudaMalloc(ptr, bytes); });
}
owStatus free_(int device, void* ptr) {
  if (ptr == nullptr) return owSuccess;
  return on_device(device, "cudaFree", [&] { return cudaFree(ptr); });
}
owStatus memsetAsync(void* ptr, int value, size_t bytes, owStream_t stream) {
  if (bytes == 0) return owSuccess;
  return check(cudaMemsetAsync(ptr, value, bytes, as_stream(stream)), "cudaMemsetAsync");
}
owStatus memcpyAsync(void* dst, const void* src, size_t bytes, owMemcpyKind kind,
                     owStream_t stream) {
  if (bytes == 0) return owSuccess;
  cudaMemcpyKind k = cudaMemcpyDeviceToDevice;
  switch (kind) {
    case owMemcpyHostToDevice:
      k = cudaMemcpyHostToDevice;
      break;
    case owMemcpyDeviceToHost:
      k = cudaMemcpyDeviceToHost;
      break;
    case owMemcpyDeviceToDevice:
      k = cudaMemcpyDeviceToDevice;
      break;
    default:
      return fail(owInvalidValue, "memcpyAsync: unknown copy kind");
  }
  return check(cudaMemcpyAsync(dst, src, bytes, k, as_stream(stream)), "cudaMemcpyAsync");
}
owStatus memcpyPeerAsync(void* dst, int dst_device, const void* src, int src_device, size_t bytes,
                         owStream_t stream) {
  if (bytes == 0) return owSuccess;
  return check(cudaMemcpyPeerAsync(dst, dst_device, src, src_device, bytes, as_stream(stream)),
               "cudaMemcpyPeerAsync");
}
owStatus hostMallocPinned(size_t bytes, void** ptr) {
  if (ptr == nullptr) return fail(owInvalidValue, "hostMallocPinned: null result pointer");
  return check(cudaHostAlloc(ptr, bytes, cudaHostAllocPortable), "cudaHostAlloc");
}
owStatus hostFreePinned(void* ptr) { return check(cudaFreeHost(ptr), "cudaFreeHost"); }

// ---- streams: non-blocking, so they never serialise with the legacy default stream (which
// torch's own CUDA work in the same process may use).
owStatus streamCreate(int device, owStream_t* stream) {
  if (stream == nullptr) return fail(owInvalidValue, "streamCreate: null result pointer");
  cudaStream_t s = nullptr;
  const owStatus st = on_device(device, "cudaStreamCreateWithFlags", [&] {
    return cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  });
  *stream = reinterpret_cast<owStream_t>(s);
  return st;
}
owStatus streamDestroy(owStream_t stream) {
  return check(cudaStreamDestroy(as_stream(stream)), "cudaStreamDestroy");
}
owStatus streamSynchronize(owStream_t stream) {
  return check(cudaStreamSynchronize(as_stream(stream)), "cudaStreamSynchronize");
}
owStatus streamQuery(owStream_t stream) {
  return check(cudaStreamQuery(as_stream(stream)), "cudaStreamQuery");
}

// ---- events (timing enabled: the runtime may ask for elapsed time on any event)
owStatus eventCreate(owEvent_t* event) {
  if (event == nullptr) return fail(owInvalidValue, "eventCreate: null result pointer");
  cudaEvent_t e = nullptr;
  const owStatus st = check(cudaEventCreate(&e), "cudaEventCreate");
  *event = reinterpret_cast<owEvent_t>(e);
  return st;
}
owStatus eventDestroy(owEvent_t event) {
  return check(cudaEventDestroy(as_event(event)), "cudaEventDestroy");
}
owStatus eventRecord(owEvent_t event, owStream_t stream) {
  return check(cudaEventRecord(as_event(event), as_stream(stream)), "cudaEventRecord");
}
owStatus streamWaitEvent(owStream_t stream, owEvent_t event) {
  return check(cudaStreamWaitEvent(as_stream(stream), as_event(event), 0), "cudaStreamWaitEvent");
}
owStatus eventQuery(owEvent_t event) {
  return check(cudaEventQuery(as_event(event)), "cudaEventQuery");
}
owStatus eventSynchronize(owEvent_t event) {
  return check(cudaEventSynchronize(as_event(event)), "cudaEventSynchronize");
}
owStatus eventElapsedTime(float* ms, owEvent_t start, owEvent_t end) {
  if (ms == nullptr) return fail(owInvalidValue, "eventElapsedTime: null result pointer");
  return check(cudaEventElapsedTime(ms, as_event(start), as_event(end)), "cudaEventElapsedTime");
}

const char* lastError() { return t_error.c_str(); }

owVendorSeam make_seam() {
  owVendorSeam s{};
  s.version = OW_SEAM_VERSION;
  s.struct_size = sizeof(owVendorSeam);
  s.name = "cuda";
  s.deviceCount = deviceCount;
  s.setDevice = setDevice;
  s.getDevice = getDevice;
  s.deviceSynchronize = deviceSynchronize;
  s.malloc = malloc_;
  s.free = free_;
  s.memsetAsync = memsetAsync;
  s.memcpyAsync = memcpyAsync;
  s.streamCreate = streamCreate;
  s.streamDestroy = streamDestroy;
  s.streamSynchronize = streamSynchronize;
  s.streamQuery = streamQuery;
  s.eventCreate = eventCreate;
  s.eventDestroy = eventDestroy;
  s.eventRecord = eventRecord;
  s.streamWaitEvent = streamWaitEvent;
  s.eventQuery = eventQuery;
  s.eventSynchronize = eventSynchronize;
  s.eventElapsedTime = eventElapsedTime;
  s.lastError = lastError;
  s.hostMallocPinned = hostMallocPinned;
  s.hostFreePinned = hostFreePinned;
  s.memcpyPeerAsync = memcpyPeerAsync;
  // Batched submission (CUDA graphs) is not wired yet: the runtime then submits op by op.
  s.streamBeginBatch = nullptr;
  s.streamEndBatch = nullptr;
  // "cuda" is torch's own device type; this device shows as torch.device("opweave") and never
  // pretends to be torch.cuda (scripts reach it through opweave.cuda_compat instead).
  s.device_name = nullptr;
  s.flags = 0;  // kernels run on the GPU, queued: autograd keeps its device thread
  return s;
}

}  // namespace
}  // namespace cuda_seam

extern "C" __attribute__((visibility("default"))) const owVendorSeam* owGetVendorSeam(void) {
  static const owVendorSeam seam = cuda_seam::make_seam();
  return &seam;
}
