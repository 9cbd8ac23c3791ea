#include "benchmarks/common/device_selection.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(DeviceSelection, EmptyMeansAllVisible) {
  EXPECT_EQ(parse_device_list("", 3), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(parse_device_list("all", 2), (std::vector<int>{0, 1}));
}

TEST(DeviceSelection, ListsAndRanges) {
  EXPECT_EQ(parse_device_list("2,0", 4), (std::vector<int>{2, 0}));
  EXPECT_EQ(parse_device_list("0-2,3", 4), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(format_device_list({0, 3}), "0,3");
}

TEST(DeviceSelection, RejectsBadItemsWithTheItemNamed) {
  try {
    parse_device_list("0,x", 2);
    FAIL() << "expected an error";
  } catch (const std::invalid_argument& error) {
    EXPECT_NE(std::string(error.what()).find("'x'"), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse_device_list("2", 2), std::invalid_argument);
  EXPECT_THROW(parse_device_list("3-1", 4), std::invalid_argument);
  EXPECT_THROW(parse_device_list("0,,1", 4), std::invalid_argument);
}

TEST(DeviceSelection, RejectsADeviceNamedTwice) {
  for (const char* text : {"0,0", "0-2,1", "1,0-1"}) {
    try {
      parse_device_list(text, 4);
      FAIL() << text << ": expected an error";
    } catch (const std::invalid_argument& error) {
      EXPECT_NE(std::string(error.what()).find("named twice"), std::string::npos) << error.what();
    }
  }
  EXPECT_THROW(parse_device_list("0,0", -1), std::invalid_argument) << "also before the GPU count is known";
}

TEST(DeviceSelection, UnknownCountSkipsTheRangeCheck) { EXPECT_EQ(parse_device_list("5", -1), (std::vector<int>{5})); }

}  // namespace
}  // namespace gpubench
