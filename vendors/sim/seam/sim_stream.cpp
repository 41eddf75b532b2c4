// Streams and events of the sim device. A stream is a FIFO of closures drained by its own
// worker thread, so work really runs asynchronously and out of step with the host; events are
// queue markers with a generation count, as on real hardware.
#include "sim_stream.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
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
  struct Task {
    std::function<void()> fn;
    bool delayed;
  };

  int device = 0;
  std::mutex mu;
  std::condition_variable work_cv;
  std::condition_variable done_cv;
  std::deque<Task> queue;
  // Written under mu; atomic so that spinning threads can read them without it.
  std::atomic<uint64_t> enqueued{0};
  std::atomic<uint64_t> completed{0};
  bool stop = false;
  std::string async_error;  // first failure of a task, reported by the next sync/query
  // Closures of batches that have run, handed back so that the host thread that allocated
  // them frees them (and reuses the vector) at its next batch: no cross-thread frees.
  std::vector<std::vector<std::function<void()>>> retired;
  std::thread worker;

  void run() {
    const auto delay = std::chrono::microseconds(sim::config().delay_us);
    for (;;) {
      Task task;
      {
        spin_until([&] {
          return enqueued.load(std::memory_order_acquire) !=
                 completed.load(std::memory_order_relaxed);
        });
        std::unique_lock<std::mutex> lock(mu);
        work_cv.wait(lock, [&] { return stop || !queue.empty(); });
        if (queue.empty()) return;  // stop requested and the queue is drained
        task = std::move(queue.front());
        queue.pop_front();
      }
      if (task.delayed && delay.count() > 0) std::this_thread::sleep_for(delay);
      std::string error;
      try {
        task.fn();
      } catch (const std::exception& e) {
        error = e.what();
      } catch (...) {
        error = "unknown exception in a stream task";
      }
      {
        std::lock_guard<std::mutex> lock(mu);
        if (!error.empty() && async_error.empty()) async_error = error;
        ++completed;
      }
      done_cv.notify_all();
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

owStatus push_now(owStream_t s, std::function<void()> work, bool delayed) {
  {
    std::lock_guard<std::mutex> lock(s->mu);
    if (s->stop) return fail(owInvalidValue, "stream is being destroyed");
    s->queue.push_back(owStream_::Task{std::move(work), delayed});
    ++s->enqueued;
  }
  s->work_cv.notify_one();
  return owSuccess;
}

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
  return push_now(
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
}

// Called by every synchronisation: what this thread batched must be queued before it waits.
void flush_batch() {
  if (t_batch.stream != nullptr) submit_batch();
}

}  // namespace

owStatus stream_push(owStream_t s, std::function<void()> work, bool delayed) {
  if (s == nullptr) return fail(owInvalidValue, "stream is NULL");
  if (s == t_batch.stream) {
    t_batch.work.push_back(std::move(work));
    t_batch.delayed = t_batch.delayed || delayed;
    return owSuccess;
  }
  return push_now(s, std::move(work), delayed);
}

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
  spin_until([&] { return s->completed.load(std::memory_order_acquire) >= target; });
  std::unique_lock<std::mutex> lock(s->mu);
  s->done_cv.wait(lock, [&] { return s->completed >= target; });
  return take_async_error(s, lock);
}

owStatus stream_query(owStream_t s) {
  if (s == nullptr) return fail(owInvalidValue, "streamQuery: stream is NULL");
  flush_batch();
  std::unique_lock<std::mutex> lock(s->mu);
  const owStatus st = take_async_error(s, lock);
  if (st != owSuccess) return st;
  return s->completed == s->enqueued ? owSuccess : owNotReady;
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
  return stream_push(
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
  return stream_push(
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

owStatus enqueue(owStream_t stream, std::function<void()> work) {
  return stream_push(stream, std::move(work), /*delayed=*/true);
}

int stream_device(owStream_t stream) { return stream == nullptr ? -1 : stream->device; }

}  // namespace sim
