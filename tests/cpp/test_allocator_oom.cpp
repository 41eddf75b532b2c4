// Allocation failure on a sim device with a 1 MiB capacity (OPWEAVE_SIM_CAPACITY, set by ctest):
// a clear c10::Error, never an abort, and cached blocks are released before giving up.
#include <ATen/ATen.h>
#include <gtest/gtest.h>

#include <string>

#include "opweave/allocator.h"
#include "opweave/stream.h"

namespace {

using opweave::allocate_on;
using opweave::allocator_stats;

TEST(AllocatorOom, TooLargeAllocationThrowsWithStats) {
  const auto before = allocator_stats(0).num_ooms;
  try {
    allocate_on(0, 2 << 20);
    FAIL() << "allocation beyond the device capacity succeeded";
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_NE(msg.find("out of memory"), std::string::npos) << msg;
    EXPECT_NE(msg.find("privateuseone:0"), std::string::npos) << msg;
  }
  EXPECT_EQ(allocator_stats(0).num_ooms, before + 1);
  c10::DataPtr ok = allocate_on(0, 1024);  // the device still works
  EXPECT_NE(ok.get(), nullptr);
}

TEST(AllocatorOom, CachedBlocksAreReleasedBeforeFailing) {
  opweave::empty_cache();
  { c10::DataPtr a = allocate_on(0, 600 << 10); }  // now cached, still reserved
  const auto frees = allocator_stats(0).device_frees;
  c10::DataPtr b = allocate_on(0, 700 << 10);  // another class: fits only without the cache
  EXPECT_NE(b.get(), nullptr);
  EXPECT_GT(allocator_stats(0).device_frees, frees);
}

TEST(AllocatorOom, TensorFactoryNamesTheOp) {
  try {
    at::empty({1 << 20}, at::TensorOptions().device("privateuseone:0"));  // 4 MiB of float
    FAIL() << "expected an out-of-memory error";
  } catch (const c10::Error& e) {
    const std::string msg = e.what_without_backtrace();
    EXPECT_NE(msg.find("aten::empty.memory_format"), std::string::npos) << msg;
    EXPECT_NE(msg.find("out of memory"), std::string::npos) << msg;
  }
}

}  // namespace
