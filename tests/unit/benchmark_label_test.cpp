#include "benchmarks/common/benchmark_label.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(BenchmarkLabel, RoundTripsEveryField) {
  FigureLabel label{"bandwidth", "GB/s", Better::Higher, 1, {{"launch", "grid528xblock1024"}, {"array_bytes", "1073741824"}}};
  const FigureLabel back = decode_label(encode_label(label));
  EXPECT_EQ(back.figure, "bandwidth");
  EXPECT_EQ(back.unit, "GB/s");
  EXPECT_EQ(back.better, Better::Higher);
  ASSERT_TRUE(back.device.has_value());
  EXPECT_EQ(*back.device, 1);
  EXPECT_EQ(back.params, label.params);
}

TEST(BenchmarkLabel, LowerIsBetterAndNoDevice) {
  const FigureLabel back = decode_label("figure=latency;unit=us;better=lower");
  EXPECT_EQ(back.better, Better::Lower);
  EXPECT_FALSE(back.device.has_value());
}

TEST(BenchmarkLabel, RejectsMissingOrMalformedKeys) {
  EXPECT_THROW(decode_label("unit=GB/s;better=higher"), std::invalid_argument);
  EXPECT_THROW(decode_label("figure=x;better=higher"), std::invalid_argument);
  EXPECT_THROW(decode_label("figure=x;unit=y"), std::invalid_argument);
  EXPECT_THROW(decode_label("figure=x;unit=y;better=sideways"), std::invalid_argument);
  EXPECT_THROW(decode_label("figure=x;unit=y;better=lower;device=zero"), std::invalid_argument);
  EXPECT_THROW(decode_label("figure=x;unit=y;better=lower;junk"), std::invalid_argument);
}

TEST(BenchmarkLabel, RefusesSeparatorsInParameters) {
  FigureLabel label{"x", "y", Better::Lower, std::nullopt, {{"bad", "a;b"}}};
  EXPECT_THROW(encode_label(label), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
