// The steady part of a job's timeline: what is left out before the GPU first worked and after it last did, and for a
// GPU busy in its steady state, its warm-up; a GPU idle in its steady state keeps its idle stretches.
#include <gtest/gtest.h>

#include <vector>

#include "harness/watch/steady_part.hpp"

namespace gpubench {
namespace {

// One sample a second with these SM activities (GPM) and utilisation at least as high.
GpuTimeline timeline(const std::vector<double>& activity) {
  GpuTimeline gpu;
  for (std::size_t i = 0; i < activity.size(); ++i) {
    GpuSample s;
    s.t_s = static_cast<double>(i);
    s.sm_active = activity[i];
    s.utilization = activity[i] > 0 ? std::min(1.0, activity[i] + 0.02) : 0.0;
    gpu.samples.push_back(s);
  }
  return gpu;
}

TEST(SteadyPart, StartUpAndEndAreLeftOut) {
  const SteadyPart part = steady_part(timeline({0, 0, 0, 0.9, 0.95, 0.96, 0.95, 0.94, 0}), true);
  EXPECT_EQ(part.first, 3u);
  EXPECT_EQ(part.last, 8u);
  EXPECT_DOUBLE_EQ(part.left_out_s, 4.0);
  EXPECT_NE(part.why.find("3 s before the GPU first worked"), std::string::npos) << part.why;
  EXPECT_NE(part.why.find("1 s after it last did"), std::string::npos) << part.why;
}

TEST(SteadyPart, ABusyGpuLeavesOutItsWarmUp) {
  // Model built, a first compile on the CPU while the GPU waits, then the training loop.
  const SteadyPart part = steady_part(timeline({0, 0.2, 0.01, 0.0, 0.02, 0.93, 0.95, 0.96, 0.95, 0.94, 0.95}), true);
  EXPECT_EQ(part.first, 5u);
  EXPECT_EQ(part.last, 11u);
  EXPECT_NE(part.why.find("of warm-up"), std::string::npos) << part.why;
}

TEST(SteadyPart, AnIdleGpuKeepsItsIdleStretches) {
  const SteadyPart part = steady_part(timeline({0, 0, 0.02, 0.0, 0.03, 0.0, 0.0, 0.02, 0.0, 0.02, 0}), true);
  EXPECT_EQ(part.first, 2u);
  EXPECT_EQ(part.last, 10u);
  EXPECT_EQ(part.why.find("warm-up"), std::string::npos) << part.why;
}

TEST(SteadyPart, AGpuThatNeverWorkedIsJudgedWhole) {
  const SteadyPart part = steady_part(timeline({0, 0, 0, 0, 0, 0}), true);
  EXPECT_EQ(part.first, 0u);
  EXPECT_EQ(part.last, 6u);
  EXPECT_TRUE(part.why.empty());
}

}  // namespace
}  // namespace gpubench
