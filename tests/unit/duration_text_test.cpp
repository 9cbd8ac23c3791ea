// Durations as people type them (stress --duration, acceptance --stress-duration).
#include "harness/cli/duration_text.hpp"

#include <gtest/gtest.h>

#include <string>

namespace gpubench {
namespace {

TEST(DurationText, ReadsSingleAndCompoundUnits) {
  EXPECT_EQ(parse_duration("90s").count(), 90);
  EXPECT_EQ(parse_duration("90").count(), 90);
  EXPECT_EQ(parse_duration("10m").count(), 600);
  EXPECT_EQ(parse_duration("1h30m").count(), 5400);
  EXPECT_EQ(parse_duration("2h15m30s").count(), 8130);
  EXPECT_EQ(parse_duration("1d").count(), 86400);
  EXPECT_EQ(parse_duration("30d").count(), 30 * 86400);
}

TEST(DurationText, RefusesWhatIsNotADurationOrTooLong) {
  for (const char* bad : {"", "0", "0s", "-5m", "1.5h", "1x", "h", "30m1h", "1h1h", "1h30", "1 h", "abc"}) {
    EXPECT_THROW(parse_duration(bad), std::invalid_argument) << bad;
  }
  try {
    parse_duration("99999999999h");
    FAIL();
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("longer than 30 days"), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse_duration("30d1s"), std::invalid_argument);
  EXPECT_THROW(parse_duration(std::string(5000, '9') + "s"), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
