// Streams and events of the sim device. A stream is a FIFO of closures drained by its own
// worker thread, so work really runs asynchronously and out of step with the host; events are
// queue markers with a generation count, as on real hardware.
#include "sim_stream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "sim_internal.h"
#include "sim_stream_impl.h"

using Clock = std::chrono::steady_clock;

namespace {

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield");
#endif
}

// Busy-waits up to the configured spin time for ready() (see Config::spin_us); true when it
// became ready, false when the caller should go to sleep on its condition variable.
template <class Ready>
bool spin_until(Ready ready) {
  const uint32_t us = sim::config().spin_us;
  if (us == 0) return ready();
  const Clock::time_point deadline = Clock::now() + std::chrono::microseconds(us);
  for (unsigned i = 1;; ++i) {
    if (ready()) return true;
    if (i % 64 == 0 && Clock::now() >= deadline) return false;
    cpu_relax();
  }
}

}  // namespace

struct owStream_ {
  // Queue depth: a producer that finds the ring full waits for the worker, as a launch on a
  // real device blocks when its command queue is full (CUDA's holds 1024 launches). A deep
  // queue matters where a task blocks on another process (a collective waiting for its peer)
  // while this host still has to reach a host-side rendezvous.
  static constexpr uint64_t kSlots = 1024;
  // Each slot starts with room for a typical kernel's closure (a binary elementwise op captures
  // three 272-byte views), so a short run allocates nothing either; larger ones grow the slot.
  static constexpr size_t kInitialSlotBytes = 1024;

  int device = 0;
  sim::detail::Slot slots[kSlots];
  // Producers: several host threads may launch on one stream (the autograd engine's device
  // thread and the main thread share the default stream). Held from reserve to publish.
  std::mutex push_mu;
  // Tasks published (the ring's tail) and tasks run (its head); a slot is the worker's from
  // publish until `completed` passes it. Separate cache lines: one is written by producers,
  // the other by the worker.
  alignas(64) std::atomic<uint64_t> enqueued{0};
  alignas(64) std::atomic<uint64_t> completed{0};
  // Sleeping only (never taken on the fast path): the worker sleeps on work_cv when idle past
  // its spin; host threads waiting for completion or for a free slot sleep on done_cv.
  alignas(64) std::mutex mu;
  std::condition_variable work_cv;
  std::condition_variable done_cv;
  std::atomic<bool> worker_asleep{false};
  std::atomic<int> sleepers{0};  // host threads asleep on done_cv
  std::atomic<bool> stop{false};
  std::string async_error;  // under mu: first failure of a task, reported by the next sync/query
  // Closures of batches that have run, handed back so that the host thread that allocated
  // them frees them (and reuses the vector) at its next batch: no cross-thread frees.
  std::vector<std::vector<std::function<void()>>> retired;
  std::thread worker;

  owStream_() {
    for (sim::detail::Slot& s : slots) {
      s.buf = ::operator new(kInitialSlotBytes, std::align_val_t(sim::detail::kSlotAlign));
      s.cap = kInitialSlotBytes;
    }
  }
  ~owStream_() {
    for (sim::detail::Slot& s : slots)
      ::operator delete(s.buf, std::align_val_t(sim::detail::kSlotAlign));
  }

  bool has_work(uint64_t next) const { return enqueued.load(std::memory_order_acquire) != next; }

  // Host side: blocks (spin, then sleep) until ready() holds; ready reads `completed`.
  template <class Ready>
  void wait_done(Ready ready) {
    if (spin_until(ready)) return;
    sleepers.fetch_add(1);  // seq_cst, paired with the worker's load after it completes a task
    {
      std::unique_lock<std::mutex> lock(mu);
      done_cv.wait(lock, ready);
    }
    sleepers.fetch_sub(1);
  }

  void run() {
    const auto delay = std::chrono::microseconds(sim::config().delay_us);
    for (uint64_t next = 0;; ++next) {
      if (!spin_until([&] { return has_work(next); })) {
        std::unique_lock<std::mutex> lock(mu);
        worker_asleep.store(true);  // seq_cst, paired with publish()'s load
        work_cv.wait(lock, [&] { return stop.load() || enqueued.load() != next; });
        worker_asleep.store(false, std::memory_order_relaxed);
        if (enqueued.load() == next) return;  // stop requested and the queue is drained
      }
      sim::detail::Slot& task = slots[next % kSlots];
      if (task.delayed && delay.count() > 0) std::this_thread::sleep_for(delay);
      const char* error = nullptr;
      std::string message;
      try {
        task.run(task.buf);
      } catch (const std::exception& e) {
        message = e.what();
        error = message.c_str();
      } catch (...) {
        error = "unknown exception in a stream task";
      }
      task.destroy(task.buf);
      if (error != nullptr) {
        std::lock_guard<std::mutex> lock(mu);
        if (async_error.empty()) async_error = error;
      }
      completed.store(next + 1);  // seq_cst: the slot is free, the task done
      if (sleepers.load() > 0) {
        { std::lock_guard<std::mutex> lock(mu); }  // a sleeper between its check and its wait
        done_cv.notify_all();
      }
    }
  }
};

struct EventState {
  std::mutex mu;
  std::condition_variable cv;
  uint64_t recorded = 0;   // generation of the latest record
  uint64_t completed = 0;  // highest generation whose marker has run
  Clock::time_point when;  // time the latest completed marker ran
};

struct owEvent_ {
  std::shared_ptr<EventState> state = std::make_shared<EventState>();
};

namespace sim {
namespace {

// Streams per device, so deviceSynchronize can drain them all.
struct Registry {
  std::mutex mu;
  std::vector<owStream_t> streams[kDeviceCount];
};

Registry& registry() {
  static Registry* r = new Registry();  // leaked: outlives every static destructor
  return *r;
}

owStatus take_async_error(owStream_t s, std::unique_lock<std::mutex>& lock) {
  if (s->async_error.empty()) return owSuccess;
  std::string msg = "sim stream task failed: " + s->async_error;
  s->async_error.clear();
  lock.unlock();
  return fail(owError, msg);
}

}  // namespace

owStatus stream_create(int device, owStream_t* stream) {
  if (stream == nullptr) return fail(owInvalidValue, "streamCreate: stream is NULL");
  if (device < 0 || device >= kDeviceCount) {
    return fail(owInvalidValue, "streamCreate: invalid device " + std::to_string(device));
  }
  auto* s = new owStream_();
  s->device = device;
  s->worker = std::thread([s] { s->run(); });
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    r.streams[device].push_back(s);
  }
  *stream = s;
  return owSuccess;
}

owStatus stream_destroy(owStream_t s) {
  if (s == nullptr) return fail(owInvalidValue, "streamDestroy: stream is NULL");
  {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mu);
    auto& v = r.streams[s->device];
    v.erase(std::remove(v.begin(), v.end(), s), v.end());
  }
  {
    std::lock_guard<std::mutex> lock(s->mu);
    s->stop = true;
  }
  s->work_cv.notify_all();
  s->worker.join();  // drains pending work first
  delete s;
  return owSuccess;
}

namespace {

// Work this thread enqueues on `stream` while a batch is open (streamBeginBatch): submitted
// as one task by streamEndBatch, or earlier by any synchronisation this thread starts.
struct Batch {
  owStream_t stream = nullptr;
  std::vector<std::function<void()>> work;
  bool delayed = false;
};

thread_local Batch t_batch;

// Submits the pending batch of this thread as one task (one launch: the configured delay is
// paid once). Its closures run in order; the first failure is reported like a task's.
owStatus submit_batch() {
  Batch& b = t_batch;
  if (b.work.empty()) return owSuccess;
  owStream_t s = b.stream;
  auto work = std::make_shared<std::vector<std::function<void()>>>(std::move(b.work));
  const bool delayed = b.delayed;
  b.delayed = false;
  // Free the closures of earlier batches here, on the thread that allocated them.
  std::vector<std::vector<std::function<void()>>> done;
  {
    std::lock_guard<std::mutex> lock(s->mu);
    done.swap(s->retired);
  }
  b.work.clear();
  for (auto& v : done) {
    v.clear();
    if (b.work.capacity() == 0) b.work.swap(v);  // reuse one vector's storage
  }
  b.stream = nullptr;  // the batch's own task goes to the ring
  const owStatus st = enqueue(
      s,
      [work, s] {
        std::string first;
        for (auto& fn : *work) {
          try {
            fn();
          } catch (const std::exception& e) {
            if (first.empty()) first = e.what();
          } catch (...) {
            if (first.empty()) first = "unknown exception in a stream task";
          }
        }
        {
          std::lock_guard<std::mutex> lock(s->mu);
          s->retired.push_back(std::move(*work));
        }
        if (!first.empty()) throw std::runtime_error(first);
      },
      delayed);
  b.stream = s;
  return st;
}

// Called by every synchronisation: what this thread batched must be queued before it waits.
void flush_batch() {
  if (t_batch.stream != nullptr) submit_batch();
}

}  // namespace

namespace detail {

Slot* reserve(owStream_t s, size_t bytes, owStatus* status) {
  if (s == nullptr) {
    *status = fail(owInvalidValue, "stream is NULL");
    return nullptr;
  }
  s->push_mu.lock();
  if (s->stop.load(std::memory_order_relaxed)) {
    s->push_mu.unlock();
    *status = fail(owInvalidValue, "stream is being destroyed");
    return nullptr;
  }
  const uint64_t tail = s->enqueued.load(std::memory_order_relaxed);
  // The ring is full: wait for the worker to free the oldest slot.
  s->wait_done([&] { return tail - s->completed.load() < owStream_::kSlots; });
  Slot& slot = s->slots[tail % owStream_::kSlots];
  if (slot.cap < bytes) {  // grows to the largest closure this slot has held, then stays
    const size_t cap = (bytes + 255) / 256 * 256;
    void* buf = ::operator new(cap, std::align_val_t(kSlotAlign));
    ::operator delete(slot.buf, std::align_val_t(kSlotAlign));
    slot.buf = buf;
    slot.cap = cap;
  }
  return &slot;
}

void publish(owStream_t s) {
  s->enqueued.fetch_add(1);  // seq_cst, paired with the worker's store of worker_asleep
  s->push_mu.unlock();
  if (s->worker_asleep.load()) {
    { std::lock_guard<std::mutex> lock(s->mu); }  // the worker between its check and its wait
    s->work_cv.notify_one();
  }
}

void abandon(owStream_t s) { s->push_mu.unlock(); }

bool batching(owStream_t s) { return s != nullptr && s == t_batch.stream; }

owStatus push_batched(owStream_t /*stream: the batch's*/, std::function<void()> work,
                      bool delayed) {
  t_batch.work.push_back(std::move(work));
  t_batch.delayed = t_batch.delayed || delayed;
  return owSuccess;
}

}  // namespace detail

owStatus stream_begin_batch(owStream_t s) {
  if (s == nullptr) return fail(owInvalidValue, "streamBeginBatch: stream is NULL");
  if (t_batch.stream != nullptr) {
    return fail(owInvalidValue, "streamBeginBatch: this thread already has an open batch");
  }
  t_batch.stream = s;
  return owSuccess;
}

owStatus stream_end_batch(owStream_t s) {
  if (s == nullptr || s != t_batch.stream) {
    return fail(owInvalidValue, "streamEndBatch: no batch open on this stream");
  }
  const owStatus st = submit_batch();
  t_batch.stream = nullptr;
  return st;
}

owStatus stream_synchronize(owStream_t s) {
  if (s == nullptr) return fail(owInvalidValue, "streamSynchronize: stream is NULL");
  flush_batch();
  const uint64_t target = s->enqueued.load(std::memory_order_acquire);
  s->wait_done([&] { return s->completed.load() >= target; });
  std::unique_lock<std::mutex> lock(s->mu);
  return take_async_error(s, lock);
}

owStatus stream_query(owStream_t s) {
  if (s == nullptr) return fail(owInvalidValue, "streamQuery: stream is NULL");
  flush_batch();
  std::unique_lock<std::mutex> lock(s->mu);
  const owStatus st = take_async_error(s, lock);
  if (st != owSuccess) return st;
  return s->completed.load() == s->enqueued.load() ? owSuccess : owNotReady;
}

owStatus device_synchronize(int device) {
  if (device < 0 || device >= kDeviceCount) {
    return fail(owInvalidValue, "deviceSynchronize: invalid device " + std::to_string(device));
  }
  flush_batch();
  Registry& r = registry();
  std::lock_guard<std::mutex> lock(r.mu);  // keeps the streams alive while we wait
  owStatus result = owSuccess;
  for (owStream_t s : r.streams[device]) {
    const owStatus st = stream_synchronize(s);
    if (result == owSuccess) result = st;
  }
  return result;
}

owStatus event_create(owEvent_t* event) {
  if (event == nullptr) return fail(owInvalidValue, "eventCreate: event is NULL");
  *event = new owEvent_();
  return owSuccess;
}

owStatus event_destroy(owEvent_t event) {
  if (event == nullptr) return fail(owInvalidValue, "eventDestroy: event is NULL");
  delete event;  // pending markers keep the shared state alive
  return owSuccess;
}

owStatus event_record(owEvent_t event, owStream_t stream) {
  if (event == nullptr || stream == nullptr) {
    return fail(owInvalidValue, "eventRecord: NULL event or stream");
  }
  std::shared_ptr<EventState> st = event->state;
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(st->mu);
    gen = ++st->recorded;
  }
  return enqueue(
      stream,
      [st, gen] {
        {
          std::lock_guard<std::mutex> lock(st->mu);
          if (gen >= st->completed) {
            st->completed = gen;
            st->when = Clock::now();
          }
        }
        st->cv.notify_all();
      },
      /*delayed=*/false);
}

owStatus stream_wait_event(owStream_t stream, owEvent_t event) {
  if (event == nullptr || stream == nullptr) {
    return fail(owInvalidValue, "streamWaitEvent: NULL event or stream");
  }
  std::shared_ptr<EventState> st = event->state;
  uint64_t gen;
  {
    std::lock_guard<std::mutex> lock(st->mu);
    gen = st->recorded;
    if (gen == 0 || st->completed >= gen) return owSuccess;  // nothing to wait for
  }
  // The waiting stream's queue stalls here until the marker of generation `gen` has run.
  return enqueue(
      stream,
      [st, gen] {
        std::unique_lock<std::mutex> lock(st->mu);
        st->cv.wait(lock, [&] { return st->completed >= gen; });
      },
      /*delayed=*/false);
}

owStatus event_query(owEvent_t event) {
  if (event == nullptr) return fail(owInvalidValue, "eventQuery: event is NULL");
  flush_batch();
  std::lock_guard<std::mutex> lock(event->state->mu);
  return event->state->completed >= event->state->recorded ? owSuccess : owNotReady;
}

owStatus event_synchronize(owEvent_t event) {
  if (event == nullptr) return fail(owInvalidValue, "eventSynchronize: event is NULL");
  flush_batch();
  EventState& st = *event->state;
  std::unique_lock<std::mutex> lock(st.mu);
  const uint64_t target = st.recorded;
  st.cv.wait(lock, [&] { return st.completed >= target; });
  return owSuccess;
}

owStatus event_elapsed_time(float* ms, owEvent_t start, owEvent_t end) {
  if (ms == nullptr || start == nullptr || end == nullptr) {
    return fail(owInvalidValue, "eventElapsedTime: NULL argument");
  }
  Clock::time_point t0, t1;
  for (auto [ev, out] : {std::pair<owEvent_t, Clock::time_point*>{start, &t0}, {end, &t1}}) {
    std::lock_guard<std::mutex> lock(ev->state->mu);
    if (ev->state->recorded == 0) {
      return fail(owInvalidValue, "eventElapsedTime: event was never recorded");
    }
    if (ev->state->completed < ev->state->recorded) {
      return fail(owNotReady, "eventElapsedTime: event has not completed");
    }
    *out = ev->state->when;
  }
  *ms = std::chrono::duration<float, std::milli>(t1 - t0).count();
  return owSuccess;
}

int stream_device(owStream_t stream) { return stream == nullptr ? -1 : stream->device; }

}  // namespace sim
