// Public helpers for sim kernels: run work on a sim stream.
//
// Every sim stream owns a worker thread that executes its queue in order, asynchronously with
// respect to the host. A kernel captures what it needs by value (host pointers obtained with
// sim::host_ptr(), sizes, scalars) and enqueues a closure; it must not capture diopi handles or
// the context, which die when the op call returns. The memory behind device pointers stays valid
// until the closure has run because the runtime's allocator is stream-ordered.
//
//   owStream_t s = ...;  // from diopiGetStream(ctx, ...)
//   float* out = sim::host_ptr<float>(out_data);
//   sim::enqueue(s, [=] { for (int64_t i = 0; i < n; ++i) out[i] = 0.f; });
//
// An exception thrown by a closure is caught by the worker and reported (as owError with the
// message) by the next streamSynchronize/streamQuery on that stream, like an asynchronous device
// fault.
#ifndef OPWEAVE_SIM_STREAM_H_
#define OPWEAVE_SIM_STREAM_H_

#include <functional>

#include "opweave/vendor_seam.h"
#include "sim_memory.h"

namespace sim {

// Appends `work` to the stream's queue; owInvalidValue for a null or destroyed stream.
owStatus enqueue(owStream_t stream, std::function<void()> work);

// Device a stream belongs to (-1 for null).
int stream_device(owStream_t stream);

}  // namespace sim

#endif  // OPWEAVE_SIM_STREAM_H_
