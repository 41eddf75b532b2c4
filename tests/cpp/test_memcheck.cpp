// The device memory checker in a program without Python: C++ stacks only (the test's own
// function named from the executable's symbol table), raw-free errors as c10::Error.
// DISABLED_LeakForTheExitReport is run by tests/python/test_memcheck.py with
// OPWEAVE_MEMCHECK=1 to check the library's own at-exit report.
#include <gtest/gtest.h>

#include <string>

#include "opweave/allocator.h"
#include "opweave/memcheck.h"

namespace {

namespace memcheck = opweave::memcheck;

class MemcheckTest : public ::testing::Test {
 protected:
  void SetUp() override { memcheck::set_enabled(true); }
  void TearDown() override { memcheck::set_enabled(false); }
};

bool contains(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

TEST_F(MemcheckTest, LiveAllocationIsReportedWithItsCppStack) {
  const int64_t mark = memcheck::sequence();
  c10::DataPtr kept = opweave::allocate_on(0, 5000);
  { c10::DataPtr freed = opweave::allocate_on(0, 100); }
  const std::string json = memcheck::report_json(mark);
  EXPECT_TRUE(contains(json, "\"live_count\": 1, \"live_bytes\": 5000")) << json;
  EXPECT_TRUE(contains(json, "\"python\": []")) << json;
  EXPECT_TRUE(contains(json, "\"cpp\": [\"opweave::allocate_on [libopweave.so]\"")) << json;
  // The caller is a function the executable does not export: found in its .symtab.
  EXPECT_TRUE(contains(json, "MemcheckTest_LiveAllocationIsReportedWithItsCppStack_Test::TestBody"))
      << json;
  kept.clear();
  EXPECT_TRUE(contains(memcheck::report_json(mark), "\"live_count\": 0")) << json;
}

TEST_F(MemcheckTest, RawDoubleFreeThrowsWithBothStacks) {
  void* p = opweave::raw_alloc(64, 0);
  opweave::raw_delete(p);
  try {
    opweave::raw_delete(p);
    FAIL() << "a second raw_delete did not throw";
  } catch (const c10::Error& e) {
    const std::string what = e.what();
    EXPECT_TRUE(contains(what, "double free: caching_allocator_delete(")) << what;
    EXPECT_TRUE(contains(what, "first freed at")) << what;
    EXPECT_TRUE(contains(what, "allocated at (anonymous namespace)::MemcheckTest_RawDoubleFree"))
        << what;
  }
}

TEST(MemcheckOff, BadRawFreeStillThrows) {
  ASSERT_FALSE(memcheck::enabled());
  int local = 0;
  EXPECT_THROW(opweave::raw_delete(&local), c10::Error);
  EXPECT_NO_THROW(opweave::raw_delete(nullptr));
}

TEST(MemcheckExit, DISABLED_LeakForTheExitReport) {
  static c10::DataPtr* leaked = new c10::DataPtr(opweave::allocate_on(0, 3000));
  EXPECT_NE(leaked->get(), nullptr);
}

}  // namespace
