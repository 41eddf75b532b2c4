// simStreamHold / simStreamRelease: park a stream's worker so that the host can queue a batch of
// work that then runs back to back. A measuring facility of the simulator (bench/icount.cpp
// finds it with dlsym; no other vendor has one), outside the vendor seam.
//
// Why: the instruction-count gate counts a 1-element op on sim, host thread and stream worker
// together. Left alone, whether the worker falls asleep between two ops (and is woken for the
// next: a futex wake on the host, a condition-variable return on the worker, ~300 instructions
// per op) depends on how the OS schedules the two threads, so the same binary counted 3,581 or
// 3,881 per mul_ on a loaded machine and the gate failed without a change. Held, the worker is
// inside a task (not asleep) while the host queues, so no op wakes it; released, it runs the
// queue without sleeping: every op pays exactly the steady-state path of a host running ahead of
// its device, which is the path the gate is meant to watch.
#include <condition_variable>
#include <memory>
#include <mutex>

#include "sim_stream.h"

namespace {

struct Hold {
  std::mutex mu;
  std::condition_variable cv;
  bool entered = false;   // the worker is inside the hold task
  bool released = false;  // the host let it go
};

}  // namespace

extern "C" {

// Queues a task that keeps `stream`'s worker until simStreamRelease(*token), and returns once the
// worker is inside it (the work queued before it has run). The stream must not be synchronised
// from this thread while held: nothing behind the hold runs until it is released.
owStatus simStreamHold(owStream_t stream, void** token) {
  if (token == nullptr) return owInvalidValue;
  auto hold = std::make_shared<Hold>();
  const owStatus status = sim::enqueue(
      stream,
      [hold] {
        std::unique_lock<std::mutex> lock(hold->mu);
        hold->entered = true;
        hold->cv.notify_all();
        hold->cv.wait(lock, [&] { return hold->released; });
      },
      /*delayed=*/false);
  if (status != owSuccess) return status;
  {
    std::unique_lock<std::mutex> lock(hold->mu);
    hold->cv.wait(lock, [&] { return hold->entered; });
  }
  *token = new std::shared_ptr<Hold>(std::move(hold));
  return owSuccess;
}

// Lets the held worker go on; `token` is consumed.
owStatus simStreamRelease(void* token) {
  if (token == nullptr) return owInvalidValue;
  std::unique_ptr<std::shared_ptr<Hold>> owned(static_cast<std::shared_ptr<Hold>*>(token));
  Hold& hold = **owned;
  {
    std::lock_guard<std::mutex> lock(hold.mu);
    hold.released = true;
  }
  hold.cv.notify_all();
  return owSuccess;
}

}  // extern "C"
