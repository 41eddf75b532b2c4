// Streams and events on the sim device (OPWEAVE_SIM_DELAY_US=2000 set by ctest, so queued work
// visibly lags behind the host): in-order execution, asynchrony, cross-stream ordering through
// events, and the c10 stream/event/guard API on PrivateUse1.
#include <ATen/ATen.h>
#include <c10/core/DeviceGuard.h>
#include <c10/core/Event.h>
#include <gtest/gtest.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "opweave/stream.h"
#include "opweave/vendor.h"
#include "sim_stream.h"

namespace {

const owVendorSeam& S() { return opweave::seam(); }

struct DeviceBuffer {
  explicit DeviceBuffer(size_t n, int device = 0) : bytes(n), device(device) {
    EXPECT_EQ(S().malloc(device, n, &ptr), owSuccess);
  }
  ~DeviceBuffer() { S().free(device, ptr); }
  void* ptr = nullptr;
  size_t bytes;
  int device;
};

owStream_t make_stream(int device = 0) {
  owStream_t s = nullptr;
  EXPECT_EQ(S().streamCreate(device, &s), owSuccess);
  return s;
}

TEST(SimStreams, DeviceAddressesAreNotHostAddresses) {
  DeviceBuffer buf(64);
  EXPECT_TRUE(sim::is_device_ptr(buf.ptr));
  EXPECT_EQ(sim::device_of(buf.ptr), 0);
  EXPECT_FALSE(sim::is_device_ptr(&buf));
}

TEST(SimStreams, CopiesOnOneStreamRunInOrder) {
  owStream_t s = make_stream();
  DeviceBuffer buf(4 * sizeof(int));
  std::vector<int> in = {1, 2, 3, 4}, out(4, 0);
  ASSERT_EQ(S().memcpyAsync(buf.ptr, in.data(), buf.bytes, owMemcpyHostToDevice, s), owSuccess);
  ASSERT_EQ(S().memsetAsync(static_cast<char*>(buf.ptr) + sizeof(int), 0, sizeof(int), s),
            owSuccess);
  ASSERT_EQ(S().memcpyAsync(out.data(), buf.ptr, buf.bytes, owMemcpyDeviceToHost, s), owSuccess);
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  EXPECT_EQ(out, (std::vector<int>{1, 0, 3, 4}));
  S().streamDestroy(s);
}

TEST(SimStreams, WorkIsAsynchronousUntilSynchronized) {
  owStream_t s = make_stream();
  DeviceBuffer buf(sizeof(int));
  int in = 42, out = 0;
  ASSERT_EQ(S().memcpyAsync(buf.ptr, &in, sizeof in, owMemcpyHostToDevice, s), owSuccess);
  ASSERT_EQ(S().memcpyAsync(&out, buf.ptr, sizeof out, owMemcpyDeviceToHost, s), owSuccess);
  EXPECT_EQ(S().streamQuery(s), owNotReady);  // 2 ms per task: still queued
  EXPECT_EQ(out, 0);
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  EXPECT_EQ(S().streamQuery(s), owSuccess);
  EXPECT_EQ(out, 42);
  S().streamDestroy(s);
}

TEST(SimStreams, StreamWaitEventOrdersAcrossStreams) {
  owStream_t producer = make_stream(), consumer = make_stream();
  owEvent_t ev = nullptr;
  ASSERT_EQ(S().eventCreate(&ev), owSuccess);
  std::atomic<int> value{0};
  int seen = -1;
  ASSERT_EQ(sim::enqueue(producer,
                         [&] {
                           std::this_thread::sleep_for(std::chrono::milliseconds(30));
                           value = 7;
                         }),
            owSuccess);
  ASSERT_EQ(S().eventRecord(ev, producer), owSuccess);
  EXPECT_EQ(S().eventQuery(ev), owNotReady);
  ASSERT_EQ(S().streamWaitEvent(consumer, ev), owSuccess);
  ASSERT_EQ(sim::enqueue(consumer, [&] { seen = value; }), owSuccess);
  ASSERT_EQ(S().streamSynchronize(consumer), owSuccess);
  EXPECT_EQ(seen, 7) << "consumer ran before the event it waited for";
  EXPECT_EQ(S().eventQuery(ev), owSuccess);
  S().eventDestroy(ev);
  S().streamDestroy(producer);
  S().streamDestroy(consumer);
}

TEST(SimStreams, BatchedWorkRunsAsOneTaskInOrder) {
  ASSERT_NE(S().streamBeginBatch, nullptr);
  ASSERT_NE(S().streamEndBatch, nullptr);
  owStream_t s = make_stream(), other = make_stream();
  std::vector<int> order;
  std::atomic<int> other_ran{0};
  ASSERT_EQ(S().streamBeginBatch(s), owSuccess);
  EXPECT_EQ(S().streamBeginBatch(other), owInvalidValue);  // batches do not nest
  EXPECT_EQ(S().streamEndBatch(other), owInvalidValue);
  for (int i = 0; i < 3; ++i)
    ASSERT_EQ(sim::enqueue(s, [&order, i] { order.push_back(i); }), owSuccess);
  ASSERT_EQ(sim::enqueue(other, [&] { other_ran = 1; }), owSuccess);  // not batched
  // (no synchronisation here: it would submit the batch) other's worker runs on its own
  for (int i = 0; i < 500 && other_ran.load() == 0; ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  EXPECT_EQ(other_ran.load(), 1);
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_TRUE(order.empty()) << "batched work ran before the batch was submitted";
  ASSERT_EQ(S().streamEndBatch(s), owSuccess);
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  S().streamDestroy(s);
  S().streamDestroy(other);
}

TEST(SimStreams, SynchronizingInsideABatchSubmitsItFirst) {
  owStream_t s = make_stream();
  int seen = 0;
  ASSERT_EQ(S().streamBeginBatch(s), owSuccess);
  ASSERT_EQ(sim::enqueue(s, [&] { seen = 1; }), owSuccess);
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);  // would miss the work if not submitted
  EXPECT_EQ(seen, 1);
  ASSERT_EQ(sim::enqueue(s, [&] { throw std::runtime_error("planted"); }), owSuccess);
  ASSERT_EQ(sim::enqueue(s, [&] { seen = 2; }), owSuccess);
  ASSERT_EQ(S().streamEndBatch(s), owSuccess);
  EXPECT_EQ(S().streamSynchronize(s), owError);  // a failing closure is reported like a task's
  EXPECT_NE(std::string(S().lastError()).find("planted"), std::string::npos);
  EXPECT_EQ(seen, 2);  // later work of the batch still ran, as later tasks would
  S().streamDestroy(s);
}

TEST(SimStreams, WithoutAnEventStreamsOverlap) {
  owStream_t slow = make_stream(), fast = make_stream();
  std::atomic<bool> slow_done{false};
  bool fast_saw_slow_done = true;
  ASSERT_EQ(sim::enqueue(slow,
                         [&] {
                           std::this_thread::sleep_for(std::chrono::milliseconds(50));
                           slow_done = true;
                         }),
            owSuccess);
  ASSERT_EQ(sim::enqueue(fast, [&] { fast_saw_slow_done = slow_done; }), owSuccess);
  ASSERT_EQ(S().streamSynchronize(fast), owSuccess);
  EXPECT_FALSE(fast_saw_slow_done);
  S().streamDestroy(slow);
  S().streamDestroy(fast);
}

TEST(SimStreams, EventElapsedTimeMeasuresQueuedWork) {
  owStream_t s = make_stream();
  owEvent_t start = nullptr, end = nullptr;
  ASSERT_EQ(S().eventCreate(&start), owSuccess);
  ASSERT_EQ(S().eventCreate(&end), owSuccess);
  ASSERT_EQ(S().eventRecord(start, s), owSuccess);
  ASSERT_EQ(sim::enqueue(s, [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }),
            owSuccess);
  ASSERT_EQ(S().eventRecord(end, s), owSuccess);
  float ms = 0;
  EXPECT_EQ(S().eventElapsedTime(&ms, start, end), owNotReady);
  ASSERT_EQ(S().eventSynchronize(end), owSuccess);
  ASSERT_EQ(S().eventElapsedTime(&ms, start, end), owSuccess);
  EXPECT_GE(ms, 20.0f);
  S().eventDestroy(start);
  S().eventDestroy(end);
  S().streamDestroy(s);
}

TEST(SimStreams, FailingTaskIsReportedAtSynchronize) {
  owStream_t s = make_stream();
  ASSERT_EQ(sim::enqueue(s, [] { throw std::runtime_error("kernel exploded"); }), owSuccess);
  EXPECT_EQ(S().streamSynchronize(s), owError);
  EXPECT_NE(std::string(S().lastError()).find("kernel exploded"), std::string::npos);
  EXPECT_EQ(S().streamSynchronize(s), owSuccess);  // reported once
  S().streamDestroy(s);
}

TEST(SimStreams, OutOfBoundsCopyIsRejected) {
  owStream_t s = make_stream();
  DeviceBuffer buf(16);
  char host[64] = {};
  EXPECT_EQ(S().memcpyAsync(buf.ptr, host, 64, owMemcpyHostToDevice, s), owInvalidValue);
  EXPECT_NE(std::string(S().lastError()).find("outside"), std::string::npos);
  EXPECT_EQ(S().memcpyAsync(host, buf.ptr, 16, owMemcpyHostToDevice, s), owInvalidValue);
  S().streamDestroy(s);
}

// The queue is a ring of slots: a host that launches more than it holds waits for the worker,
// and everything still runs once, in order.
TEST(SimStreams, MoreTasksThanQueueSlotsRunInOrder) {
  owStream_t s = make_stream();
  const int n = 3000;  // more than the ring (1024 slots) holds, behind a slow first task
  std::vector<int> order;
  order.reserve(n);
  ASSERT_EQ(sim::enqueue(s, [] { std::this_thread::sleep_for(std::chrono::milliseconds(20)); }),
            owSuccess);
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(sim::enqueue(
                  s, [&order, i] { order.push_back(i); }, /*delayed=*/false),
              owSuccess);
  }
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  ASSERT_EQ(order.size(), static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) ASSERT_EQ(order[i], i);
  S().streamDestroy(s);
}

// A closure larger than a slot's first buffer grows the slot; what it captured arrives intact
// and is destroyed once.
TEST(SimStreams, LargeClosuresArriveIntactAndAreDestroyedOnce) {
  owStream_t s = make_stream();
  auto alive = std::make_shared<int>(0);
  std::array<int64_t, 1000> big{};  // 8 KB, beyond a slot's initial 1 KiB
  std::atomic<int64_t> sum{0};
  for (int k = 0; k < 600; ++k) {
    big[k % big.size()] = k;
    ASSERT_EQ(sim::enqueue(
                  s,
                  [big, alive, &sum] {
                    int64_t t = 0;
                    for (int64_t v : big) t += v;
                    sum += t;
                  },
                  /*delayed=*/false),
              owSuccess);
  }
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  int64_t want = 0, running = 0;
  for (int k = 0; k < 600; ++k) want += (running += k);
  EXPECT_EQ(sum.load(), want);
  EXPECT_EQ(alive.use_count(), 1);  // every queued copy destroyed after it ran
  S().streamDestroy(s);
}

// Two host threads launching on one stream (the autograd engine's device thread and the main
// thread share the default stream): every task runs exactly once.
// The stream hold bench/icount.cpp counts sim's per-op instructions under: nothing queued behind
// it runs until it is released, and then everything does, in order.
TEST(SimStreams, AHeldStreamRunsNothingUntilReleased) {
  owStream_t s = make_stream();
  void* token = nullptr;
  ASSERT_EQ(simStreamHold(s, &token), owSuccess);
  ASSERT_NE(token, nullptr);
  std::vector<int> order;
  for (int i = 0; i < 3; ++i) {
    ASSERT_EQ(sim::enqueue(
                  s, [&order, i] { order.push_back(i); }, /*delayed=*/false),
              owSuccess);
  }
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  EXPECT_EQ(S().streamQuery(s), owNotReady);
  EXPECT_TRUE(order.empty());
  ASSERT_EQ(simStreamRelease(token), owSuccess);
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  EXPECT_EQ(order, (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(simStreamHold(s, nullptr), owInvalidValue);
  EXPECT_EQ(simStreamRelease(nullptr), owInvalidValue);
  S().streamDestroy(s);
}

TEST(SimStreams, TwoProducersOnOneStream) {
  owStream_t s = make_stream();
  std::atomic<int> ran{0};
  auto produce = [&] {
    for (int i = 0; i < 2000; ++i)
      ASSERT_EQ(sim::enqueue(
                    s, [&ran] { ++ran; }, false),
                owSuccess);
  };
  std::thread a(produce), b(produce);
  a.join();
  b.join();
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  EXPECT_EQ(ran.load(), 4000);
  S().streamDestroy(s);
}

TEST(SimStreams, DeviceSynchronizeDrainsEveryStreamOfTheDevice) {
  owStream_t a = make_stream(), b = make_stream();
  std::atomic<int> done{0};
  for (owStream_t s : {a, b}) ASSERT_EQ(sim::enqueue(s, [&] { ++done; }), owSuccess);
  ASSERT_EQ(S().deviceSynchronize(0), owSuccess);
  EXPECT_EQ(done, 2);
  S().streamDestroy(a);
  S().streamDestroy(b);
}

// ---- the same through c10 (the DeviceGuardImplInterface for PrivateUse1) ----

const c10::Device kDev0(c10::DeviceType::PrivateUse1, 0);
const c10::Device kDev1(c10::DeviceType::PrivateUse1, 1);

TEST(GuardImpl, DeviceGuardSwitchesAndRestoresTheCurrentDevice) {
  EXPECT_EQ(opweave::current_device(), 0);
  {
    c10::DeviceGuard g(kDev1);
    EXPECT_EQ(opweave::current_device(), 1);
    int seam_device = -1;
    S().getDevice(&seam_device);
    EXPECT_EQ(seam_device, 1);
  }
  EXPECT_EQ(opweave::current_device(), 0);
  EXPECT_THROW(c10::DeviceGuard(c10::Device(c10::DeviceType::PrivateUse1, 9)), c10::Error);
}

TEST(GuardImpl, CurrentStreamIsPerThreadAndPerDevice) {
  const c10::Stream def = opweave::current_stream(0);
  EXPECT_EQ(def.id(), 0);
  const c10::Stream pool = opweave::stream_from_pool(0);
  EXPECT_NE(pool.id(), 0);
  {
    c10::StreamGuard g(pool);
    EXPECT_EQ(opweave::current_stream(0), pool);
    EXPECT_EQ(opweave::current_stream(1).id(), 0);  // other devices untouched
    c10::Stream seen_by_other_thread = def;
    std::thread([&] { seen_by_other_thread = opweave::current_stream(0); }).join();
    EXPECT_EQ(seen_by_other_thread.id(), 0);
  }
  EXPECT_EQ(opweave::current_stream(0), def);
  EXPECT_NE(opweave::native_stream(pool), opweave::native_stream(def));
}

TEST(GuardImpl, C10EventsOrderStreams) {
  const c10::Stream producer = opweave::stream_from_pool(0);
  const c10::Stream consumer = opweave::stream_from_pool(0);
  ASSERT_NE(producer, consumer);
  std::atomic<int> value{0};
  int seen = -1;
  ASSERT_EQ(sim::enqueue(opweave::native_stream(producer),
                         [&] {
                           std::this_thread::sleep_for(std::chrono::milliseconds(30));
                           value = 1;
                         }),
            owSuccess);
  c10::Event ev(c10::DeviceType::PrivateUse1);
  ev.record(producer);
  EXPECT_FALSE(ev.query());
  ev.block(consumer);
  ASSERT_EQ(sim::enqueue(opweave::native_stream(consumer), [&] { seen = value; }), owSuccess);
  consumer.synchronize();
  EXPECT_EQ(seen, 1);
  EXPECT_TRUE(ev.query());
  EXPECT_TRUE(producer.query());
}

TEST(GuardImpl, TensorCopiesFollowTheCurrentStream) {
  at::Tensor host = at::arange(1000, at::kFloat);
  const c10::Stream side = opweave::stream_from_pool(0);
  c10::StreamGuard g(side);
  at::Tensor dev = host.to(kDev0);
  at::Tensor back = dev.to(at::kCPU);  // blocking: synchronizes `side`
  EXPECT_TRUE(at::equal(back, host));
  EXPECT_TRUE(side.query());
}

}  // namespace
