// OPWEAVE_SIM_DEBUG=1 (set by ctest): fresh device memory is poisoned, and writes past the end
// of an allocation are reported when it is freed.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "opweave/vendor.h"
#include "sim_stream.h"

namespace {

const owVendorSeam& S() { return opweave::seam(); }

TEST(SimDebug, FreshMemoryIsPoisoned) {
  owStream_t s = nullptr;
  ASSERT_EQ(S().streamCreate(0, &s), owSuccess);
  void* p = nullptr;
  ASSERT_EQ(S().malloc(0, 64, &p), owSuccess);
  std::vector<unsigned char> out(64, 0);
  ASSERT_EQ(S().memcpyAsync(out.data(), p, 64, owMemcpyDeviceToHost, s), owSuccess);
  ASSERT_EQ(S().streamSynchronize(s), owSuccess);
  EXPECT_EQ(out, std::vector<unsigned char>(64, 0xCD));
  EXPECT_EQ(S().free(0, p), owSuccess);
  S().streamDestroy(s);
}

TEST(SimDebug, OverrunIsDetectedOnFree) {
  void* p = nullptr;
  ASSERT_EQ(S().malloc(0, 32, &p), owSuccess);
  sim::host_ptr<unsigned char>(p)[32 + 3] = 0;  // a buggy kernel writes past the end
  testing::internal::CaptureStderr();
  EXPECT_EQ(S().free(0, p), owError);
  const std::string log = testing::internal::GetCapturedStderr();
  EXPECT_NE(std::string(S().lastError()).find("corruption"), std::string::npos);
  EXPECT_NE(log.find("1 after"), std::string::npos) << log;
}

TEST(SimDebug, UnderrunIsDetectedOnFree) {
  void* p = nullptr;
  ASSERT_EQ(S().malloc(1, 32, &p), owSuccess);
  sim::host_ptr<unsigned char>(p)[-1] = 0;
  testing::internal::CaptureStderr();
  EXPECT_EQ(S().free(1, p), owError);
  testing::internal::GetCapturedStderr();
  EXPECT_NE(std::string(S().lastError()).find("before"), std::string::npos);
}

TEST(SimDebug, DoubleFreeIsRejected) {
  void* p = nullptr;
  ASSERT_EQ(S().malloc(0, 32, &p), owSuccess);
  ASSERT_EQ(S().free(0, p), owSuccess);
  EXPECT_EQ(S().free(0, p), owInvalidValue);
}

}  // namespace
