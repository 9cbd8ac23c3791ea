#include "harness/report/text_table.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace gpubench {
namespace {

TEST(TextTable, GroupLabelsStandAboveTheirFirstColumn) {
  TextTable table;
  table.add_column("size", TextTable::Align::Right);
  table.add_column("time", TextTable::Align::Right, "out_of_place");
  table.add_column("busbw", TextTable::Align::Right, "out_of_place");
  table.add_column("time", TextTable::Align::Right, "in_place");
  table.add_row({"8", "16.67", "0.0005", "16.76"});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(),
            "      out_of_place   in_place\n"
            "size   time   busbw      time\n"
            "----  -----  ------  --------\n"
            "   8  16.67  0.0005     16.76\n")
      << "a label longer than its columns widens the last of them";
}

TEST(TextTable, NoGroupNoLineAbove) {
  TextTable table;
  table.add_column("id");
  table.add_column("value", TextTable::Align::Right);
  table.add_row({"memory/triad", "4362.4"});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(), "id             value\n------------  ------\nmemory/triad  4362.4\n");
}

TEST(TextTable, ACharacterOfSeveralBytesTakesOneColumn) {
  TextTable table;
  table.add_column("shape");
  table.add_column("limit", TextTable::Align::Right);
  table.add_row({"8192³", "85 °C"});
  table.add_row({"4096x4096", "1 µs"});
  std::ostringstream out;
  table.print(out);
  EXPECT_EQ(out.str(),
            "shape      limit\n"
            "---------  -----\n"
            "8192³      85 °C\n"
            "4096x4096   1 µs\n");
}

}  // namespace
}  // namespace gpubench
