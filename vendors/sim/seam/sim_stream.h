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
//
// The queue is a ring of slots, as a real device's command queue is: the closure is built in
// place in its slot's buffer, which the slot keeps for the next task, so launching a kernel
// allocates nothing once the ring has warmed up (a std::function per task cost a malloc on the
// host and a free on the worker, ~300 instructions and cross-thread heap traffic per 1-element
// op). The worker takes tasks without a lock; a producer wakes it only when it sleeps.
#ifndef OPWEAVE_SIM_STREAM_H_
#define OPWEAVE_SIM_STREAM_H_

#include <cstddef>
#include <functional>
#include <new>
#include <type_traits>
#include <utility>

#include "opweave/vendor_seam.h"
#include "sim_memory.h"

namespace sim {

namespace detail {

// One queued task: its closure lives in `buf` (capacity `cap`, reused by later tasks).
struct Slot {
  void (*run)(void*) = nullptr;
  void (*destroy)(void*) = nullptr;
  void* buf = nullptr;
  size_t cap = 0;
  bool delayed = false;
};

// The next free slot of `stream` with room for `bytes` (at most kSlotAlign-aligned), holding the
// stream's producer lock until publish() or abandon(); waits while the ring is full. nullptr
// (and *status set) for a null or stopping stream.
constexpr size_t kSlotAlign = 64;
Slot* reserve(owStream_t stream, size_t bytes, owStatus* status);
void publish(owStream_t stream);  // the reserved slot's task is ready: the worker may run it
void abandon(owStream_t stream);  // building the closure threw: release the slot unused
// True when this thread has a batch open on `stream` (streamBeginBatch): its work is collected
// into one task instead (push_batched).
bool batching(owStream_t stream);
owStatus push_batched(owStream_t stream, std::function<void()> work, bool delayed);

}  // namespace detail

// Appends `work` to the stream's queue; owInvalidValue for a null or destroyed stream.
// `delayed` tasks pay OPWEAVE_SIM_DELAY_US before running (data movement and kernels);
// bookkeeping tasks (event markers and waits) do not.
template <class F>
owStatus enqueue(owStream_t stream, F&& work, bool delayed = true) {
  using Fn = std::decay_t<F>;
  static_assert(alignof(Fn) <= detail::kSlotAlign, "closure over-aligned for a stream slot");
  if (detail::batching(stream)) {
    return detail::push_batched(stream, std::function<void()>(std::forward<F>(work)), delayed);
  }
  owStatus status = owSuccess;
  detail::Slot* slot = detail::reserve(stream, sizeof(Fn), &status);
  if (slot == nullptr) return status;
  try {
    ::new (slot->buf) Fn(std::forward<F>(work));
  } catch (...) {
    detail::abandon(stream);
    throw;
  }
  slot->run = [](void* p) { (*static_cast<Fn*>(p))(); };
  slot->destroy = [](void* p) { static_cast<Fn*>(p)->~Fn(); };
  slot->delayed = delayed;
  detail::publish(stream);
  return owSuccess;
}

// Device a stream belongs to (-1 for null).
int stream_device(owStream_t stream);

}  // namespace sim

// A measuring facility (sim_hold.cpp; bench/icount.cpp finds it with dlsym): park the stream's
// worker inside a task until released, so that work queued meanwhile then runs back to back.
extern "C" owStatus simStreamHold(owStream_t stream, void** token);
extern "C" owStatus simStreamRelease(void* token);

#endif  // OPWEAVE_SIM_STREAM_H_
