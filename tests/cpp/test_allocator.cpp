// Caching allocator: block reuse by size class and stream, statistics, empty_cache,
// stream-safety of record_stream.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <future>
#include <vector>

#include "opweave/allocator.h"
#include "opweave/stream.h"
#include "opweave/vendor.h"
#include "sim_stream.h"

namespace {

using opweave::allocate_on;
using opweave::allocator_stats;

class AllocatorTest : public ::testing::Test {
 protected:
  void SetUp() override {
    opweave::synchronize_device(0);
    opweave::empty_cache();
  }
};

TEST_F(AllocatorTest, FreedBlockIsReusedForSameSizeClass) {
  void* first = nullptr;
  {
    c10::DataPtr p = allocate_on(0, 1000);
    first = p.get();
    ASSERT_NE(first, nullptr);
  }
  const auto before = allocator_stats(0);
  c10::DataPtr q = allocate_on(0, 900);  // 900 and 1000 share the 1024-byte class
  EXPECT_EQ(q.get(), first);
  EXPECT_EQ(allocator_stats(0).cache_hits, before.cache_hits + 1);
  EXPECT_EQ(allocator_stats(0).device_mallocs, before.device_mallocs);
}

TEST_F(AllocatorTest, DifferentSizeClassGetsNewBlock) {
  void* small = nullptr;
  {
    c10::DataPtr p = allocate_on(0, 1000);
    small = p.get();
  }
  c10::DataPtr big = allocate_on(0, 5000);
  EXPECT_NE(big.get(), small);
}

// Cached blocks are kept in one list per size class (four classes per power of two): a request
// must get back a block of its own class, never a smaller one or one of the next class up.
TEST_F(AllocatorTest, EachSizeClassReusesOnlyItsOwnBlocks) {
  // Requests on either side of class edges (512 | 640 | 768 | 1024 | 1280 | ...), large ones too,
  // with the class each falls in: 1 and 512 share the smallest, 513 and 640 the next, ...
  const std::vector<size_t> sizes = {1,    512,  513,  640,    641,     1024,          1025,   1280,
                                     4095, 4096, 4097, 100000, 1 << 20, (1 << 20) + 1, 3 << 20};
  const std::vector<int> cls = {0, 0, 1, 1, 2, 3, 4, 4, 5, 5, 6, 7, 8, 9, 10};
  std::vector<void*> first;
  {
    std::vector<c10::DataPtr> held;
    for (size_t n : sizes) held.push_back(allocate_on(0, n));
    for (const auto& p : held) first.push_back(p.get());
  }
  const auto before = allocator_stats(0);
  std::vector<c10::DataPtr> again;
  for (size_t i = 0; i < sizes.size(); ++i) {
    again.push_back(allocate_on(0, sizes[i]));
    const auto it = std::find(first.begin(), first.end(), again.back().get());
    ASSERT_NE(it, first.end()) << sizes[i] << " bytes: not a cached block";
    EXPECT_EQ(cls[static_cast<size_t>(it - first.begin())], cls[i]) << sizes[i] << " bytes";
  }
  EXPECT_EQ(allocator_stats(0).device_mallocs, before.device_mallocs);
  EXPECT_EQ(allocator_stats(0).cache_hits, before.cache_hits + static_cast<int64_t>(sizes.size()));
}

TEST_F(AllocatorTest, StatsTrackAllocatedReservedAndPeak) {
  const auto base = allocator_stats(0);
  opweave::reset_peak_stats(0);
  {
    c10::DataPtr a = allocate_on(0, 4096);
    c10::DataPtr b = allocate_on(0, 8192);
    const auto s = allocator_stats(0);
    EXPECT_EQ(s.allocated, base.allocated + 4096 + 8192);
    EXPECT_EQ(s.requested, base.requested + 4096 + 8192);
    EXPECT_GE(s.reserved, s.allocated);
    EXPECT_EQ(s.peak_allocated, s.allocated);
  }
  const auto after = allocator_stats(0);
  EXPECT_EQ(after.allocated, base.allocated);
  EXPECT_EQ(after.peak_allocated, base.allocated + 4096 + 8192);
  EXPECT_GE(after.reserved, base.reserved + 4096 + 8192);  // cached, not returned
  EXPECT_GE(after.cached_blocks, 2);
}

TEST_F(AllocatorTest, EmptyCacheReturnsCachedBlocks) {
  { c10::DataPtr a = allocate_on(0, 1 << 20); }
  c10::DataPtr kept = allocate_on(0, 4096);
  EXPECT_GT(allocator_stats(0).reserved, allocator_stats(0).allocated);
  const auto frees = allocator_stats(0).device_frees;
  opweave::empty_cache();
  const auto s = allocator_stats(0);
  EXPECT_EQ(s.reserved, s.allocated);  // only the live block stays
  EXPECT_EQ(s.cached_blocks, 0);
  EXPECT_GT(s.device_frees, frees);
}

TEST_F(AllocatorTest, CachedBlockIsNotReusedOnAnotherStream) {
  void* first = nullptr;
  {
    c10::DataPtr p = allocate_on(0, 2048);
    first = p.get();
  }
  const c10::Stream other = opweave::stream_from_pool(0);
  const c10::Stream previous = opweave::exchange_stream(other);
  c10::DataPtr q = allocate_on(0, 2048);
  opweave::exchange_stream(previous);
  EXPECT_NE(q.get(), first);
}

TEST_F(AllocatorTest, RecordStreamDelaysReuseUntilThatStreamFinishes) {
  const c10::Stream side = opweave::stream_from_pool(0);
  std::promise<void> gate;
  std::shared_future<void> opened = gate.get_future().share();
  // The side stream is busy (with the block, in a real program) until the gate opens.
  ASSERT_EQ(sim::enqueue(opweave::native_stream(side), [opened] { opened.wait(); }), owSuccess);
  void* first = nullptr;
  {
    c10::DataPtr p = allocate_on(0, 3000);
    first = p.get();
    opweave::record_stream(p, side);
  }
  {
    c10::DataPtr q = allocate_on(0, 3000);
    EXPECT_NE(q.get(), first) << "block reused while the side stream may still use it";
  }
  gate.set_value();
  opweave::synchronize_stream(side);
  c10::DataPtr r = allocate_on(0, 3000);
  c10::DataPtr s = allocate_on(0, 3000);
  EXPECT_TRUE(r.get() == first || s.get() == first);
}

TEST_F(AllocatorTest, DeviceTensorsUseTheAllocatorOfTheirDevice) {
  const auto before0 = allocator_stats(0).allocated;
  const auto before1 = allocator_stats(1).allocated;
  {
    at::Tensor t = at::empty({256}, at::TensorOptions().device("privateuseone:1"));
    EXPECT_EQ(t.device().index(), 1);
    EXPECT_EQ(allocator_stats(1).allocated, before1 + 1024);
    EXPECT_EQ(allocator_stats(0).allocated, before0);
  }
  EXPECT_EQ(allocator_stats(1).allocated, before1);
}

TEST_F(AllocatorTest, ZeroBytesNeedNoDeviceMemory) {
  const auto before = allocator_stats(0);
  c10::DataPtr p = allocate_on(0, 0);
  EXPECT_EQ(p.get(), nullptr);
  EXPECT_EQ(p.device(), c10::Device(c10::DeviceType::PrivateUse1, 0));
  EXPECT_EQ(allocator_stats(0).num_allocs, before.num_allocs);
}

TEST_F(AllocatorTest, InvalidDeviceIsAnError) { EXPECT_THROW(allocate_on(7, 16), c10::Error); }

}  // namespace
