#include "harness/report/utc_time.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(UtcTime, ReadsTheTimesResultsDocumentsWrite) {
  EXPECT_EQ(parse_utc_time("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(parse_utc_time("2026-11-29T17:05:48Z"), 1795971948);
  EXPECT_EQ(parse_utc_time("2028-02-29T00:00:00Z"), 1835395200);  // a leap day
  EXPECT_EQ(seconds_between("2026-11-29T17:05:48Z", "2026-11-29T17:05:55Z"), 7.0);
}

TEST(UtcTime, AnythingElseIsNotKnown) {
  for (const char* other : {"", "2026-11-29", "2026-11-29T17:05:48", "2026-11-29T17:05:48+00:00", "2026-11-29 17:05:48Z",
                            "2026-11-29T17:05:48.5Z", "2026-13-01T00:00:00Z", "2026-02-30T00:00:00Z", "2027-02-29T00:00:00Z",
                            "2026-11-29T24:00:00Z", "2026-11-29T17:60:00Z", "2026-1a-29T17:05:48Z"}) {
    EXPECT_FALSE(parse_utc_time(other)) << other;
  }
  EXPECT_FALSE(seconds_between("2026-11-29T17:05:48Z", ""));
  EXPECT_FALSE(seconds_between("2026-11-29T17:05:48Z", "2026-11-29T17:05:47Z")) << "a run does not end before it begins";
}

}  // namespace
}  // namespace gpubench
