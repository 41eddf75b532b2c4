/* The device-runtime seam: the only functions a vendor must implement for its device.
 *
 * A vendor library exports one symbol, `owGetVendorSeam`, returning a table of function
 * pointers. Optional capabilities are NULL pointers, so the runtime can report what a vendor
 * has instead of discovering it through link errors. All functions return owStatus.
 * Every function is thread-safe; "current device" is per host thread (like CUDA).
 *
 * Contract details the runtime relies on:
 *  - streams are never NULL: the runtime creates a default stream per device itself;
 *  - memcpyAsync/memsetAsync take device memory of the stream's device; cross-device copies
 *    use memcpyPeerAsync when present (the runtime fences both streams with events), else
 *    bounce through the host;
 *  - eventDestroy may be called while a record or a streamWaitEvent on the event is still
 *    pending; the pending operations complete normally (CUDA semantics);
 *  - free is only called after the runtime synchronised the device, so it need not wait;
 *  - lastError is per thread and describes the latest failing call of that thread. */
#ifndef OPWEAVE_VENDOR_SEAM_H_
#define OPWEAVE_VENDOR_SEAM_H_

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define OW_SEAM_VERSION 1

typedef enum {
  owSuccess = 0,
  owNotReady = 1,     /* stream/event query: work still pending */
  owOutOfMemory = 2,  /* malloc: device capacity exhausted */
  owInvalidValue = 3, /* bad device index, null handle, ... */
  owError = 4,        /* anything else; details via lastError */
} owStatus;

typedef enum {
  owMemcpyHostToDevice = 0,
  owMemcpyDeviceToHost = 1,
  owMemcpyDeviceToDevice = 2,
} owMemcpyKind;

typedef struct owStream_* owStream_t; /* opaque, vendor-defined; also the DIOPI stream */
typedef struct owEvent_* owEvent_t;

typedef struct owVendorSeam {
  uint32_t version;     /* OW_SEAM_VERSION the vendor was built against */
  uint32_t struct_size; /* sizeof(owVendorSeam) in the vendor's build */
  const char* name;     /* vendor name, e.g. "sim" */

  /* Devices. */
  owStatus (*deviceCount)(int* count);
  owStatus (*setDevice)(int index);
  owStatus (*getDevice)(int* index);
  owStatus (*deviceSynchronize)(int index);

  /* Device memory. malloc(0) may return NULL. */
  owStatus (*malloc)(int device, size_t bytes, void** ptr);
  owStatus (*free)(int device, void* ptr);
  owStatus (*memsetAsync)(void* ptr, int value, size_t bytes, owStream_t stream);
  /* Ordered after earlier work on `stream`; host memory must stay valid until it completes. */
  owStatus (*memcpyAsync)(void* dst, const void* src, size_t bytes, owMemcpyKind kind,
                          owStream_t stream);

  /* Streams: work on one stream runs in order; different streams may overlap. */
  owStatus (*streamCreate)(int device, owStream_t* stream);
  owStatus (*streamDestroy)(owStream_t stream);
  owStatus (*streamSynchronize)(owStream_t stream);
  owStatus (*streamQuery)(owStream_t stream); /* owSuccess when idle, owNotReady otherwise */

  /* Events: recorded on a stream, waited on by another stream or the host. */
  owStatus (*eventCreate)(owEvent_t* event);
  owStatus (*eventDestroy)(owEvent_t event);
  owStatus (*eventRecord)(owEvent_t event, owStream_t stream);
  owStatus (*streamWaitEvent)(owStream_t stream, owEvent_t event);
  owStatus (*eventQuery)(owEvent_t event);
  owStatus (*eventSynchronize)(owEvent_t event);
  owStatus (*eventElapsedTime)(float* ms, owEvent_t start, owEvent_t end);

  /* Message for the last failing call on this thread (never NULL). */
  const char* (*lastError)(void);

  /* Optional capabilities (NULL when absent). */
  owStatus (*hostMallocPinned)(size_t bytes, void** ptr);
  owStatus (*hostFreePinned)(void* ptr);
  owStatus (*memcpyPeerAsync)(void* dst, int dst_device, const void* src, int src_device,
                              size_t bytes, owStream_t stream);
  /* Batched submission (a graph launch): after streamBeginBatch(stream), work the calling
   * thread enqueues on `stream` is collected instead of queued, and streamEndBatch(stream)
   * queues all of it, in order, as one unit (one launch). Work on other streams or from other
   * threads is not affected; a synchronisation of any stream by the calling thread submits the
   * pending batch first. Batches do not nest (owInvalidValue). Both present or both NULL. */
  owStatus (*streamBeginBatch)(owStream_t stream);
  owStatus (*streamEndBatch)(owStream_t stream);

  /* The device type torch 2.x shows for this vendor's devices (torch.device("<name>:0"),
   * the module torch.<name>); NULL: "opweave". Lower-case letters, digits and '_', not a
   * built-in torch device type. torch 1.13 cannot rename its out-of-tree device type, which
   * stays "privateuseone" there. */
  const char* device_name;

  /* OW_SEAM_* flags: what the runtime may assume about the vendor's devices (0: nothing). A
   * vendor built before this field existed ends its table at device_name and reads as 0. */
  uint32_t flags;
} owVendorSeam;

/* The kernels compute on the calling host thread, in host memory, and have finished when they
 * return (aten_ref; a freshly scaffolded vendor): streams only order work. On torch 2.x the
 * runtime then runs autograd's backward for these devices on the calling thread, as native
 * CPU's runs, instead of on the engine's device thread (opweave.BACKWARD_THREAD). */
#define OW_SEAM_HOST_SYNCHRONOUS 0x1u

/* The single entry point a vendor library exports. */
typedef const owVendorSeam* (*owGetVendorSeamFn)(void);
const owVendorSeam* owGetVendorSeam(void);

#ifdef __cplusplus
}
#endif

#endif /* OPWEAVE_VENDOR_SEAM_H_ */
