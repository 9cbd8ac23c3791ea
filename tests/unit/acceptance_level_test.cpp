// What each acceptance level runs and how long it should take on two H200s: quick is today's acceptance, standard
// stays under 6 minutes, long is about 15; each says what it runs.
#include "harness/acceptance/acceptance_level.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(AcceptanceLevel, QuickIsTodaysThirtySecondsOfSustainedStressAlone) {
  const AcceptanceLevel quick = *acceptance_level("quick");
  EXPECT_EQ(quick.sustained.count(), 30);
  EXPECT_EQ(quick.power.count(), 0);
  EXPECT_EQ(quick.pulse.count(), 0);
  EXPECT_FALSE(quick.interconnect);
  EXPECT_EQ(estimated_seconds(quick), 73) << "as measured on two H200s";
  EXPECT_LE(estimated_seconds(quick), 90);
}

TEST(AcceptanceLevel, StandardAddsPowerAndPulseAndStaysUnderSixMinutes) {
  const AcceptanceLevel standard = *acceptance_level("standard");
  EXPECT_GT(standard.sustained.count(), 30);
  EXPECT_GT(standard.power.count(), 0);
  EXPECT_GT(standard.pulse.count(), 0);
  EXPECT_FALSE(standard.interconnect);
  EXPECT_LE(estimated_seconds(standard), 6 * 60 - 60) << "a minute's room under the 6 minutes it must keep to";
  EXPECT_GE(estimated_seconds(standard), 4 * 60);
}

TEST(AcceptanceLevel, LongAddsDurationAndTheInterconnectAndIsAboutFifteenMinutes) {
  const AcceptanceLevel standard = *acceptance_level("standard");
  const AcceptanceLevel long_level = *acceptance_level("long");
  EXPECT_GT(long_level.sustained, standard.sustained);
  EXPECT_GT(long_level.power, standard.power);
  EXPECT_GT(long_level.pulse, standard.pulse);
  EXPECT_TRUE(long_level.interconnect);
  EXPECT_NEAR(estimated_seconds(long_level), 15 * 60, 30);
}

TEST(AcceptanceLevel, EachSaysWhatItRunsAndNoOtherNameIsALevel) {
  EXPECT_EQ(acceptance_level_names(), (std::vector<std::string>{"quick", "standard", "long"}));
  EXPECT_FALSE(acceptance_level("thorough"));
  const std::vector<std::string> quick = level_runs(*acceptance_level("quick"));
  ASSERT_EQ(quick.size(), 3u);
  EXPECT_EQ(quick[0], "doctor");
  EXPECT_NE(quick[2].find("sustained stress 30 s"), std::string::npos) << quick[2];
  const std::vector<std::string> standard = level_runs(*acceptance_level("standard"));
  ASSERT_EQ(standard.size(), 5u);
  EXPECT_EQ(standard[3], "power target 60 s");
  EXPECT_NE(standard[4].find("pulse 60 s"), std::string::npos) << standard[4];
  EXPECT_NE(level_runs(*acceptance_level("long"))[2].find("P2P and PCIe copies"), std::string::npos);
}

}  // namespace
}  // namespace gpubench
