// gpubench-mpi's telemetry: every rank's GPU ends up in one object, keyed as a single-process run keys it on
// rank 0's node and by host elsewhere.
#include "harness/mpi/rank_telemetry.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

TEST(RankTelemetry, GpusOfTheRootsNodeKeepTheirKeyAndOtherNodesAreNamed) {
  const nlohmann::json ranks = {{{"rank", 0}, {"host", "node-a"}},
                                {{"rank", 1}, {"host", "node-a"}},
                                {{"rank", 2}, {"host", "node-b"}},
                                {{"rank", 3}, {"host", "node-b"}}};
  const std::vector<std::string> per_rank = {R"({"gpu0": {"summary": {"power_w": {"max": 700}}}})",
                                             R"({"gpu1": {"summary": {"power_w": {"max": 690}}}})",
                                             R"({"gpu0": {"summary": {"power_w": {"max": 650}}}})",
                                             "{}"};  // rank 3 had no NVML
  const nlohmann::json merged = merge_rank_telemetry(ranks, per_rank, "node-a");
  EXPECT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged.at("gpu0").at("summary").at("power_w").at("max"), 700);
  EXPECT_EQ(merged.at("gpu1").at("summary").at("power_w").at("max"), 690);
  EXPECT_EQ(merged.at("node-b/gpu0").at("summary").at("power_w").at("max"), 650);
}

TEST(RankTelemetry, NoNvmlAnywhereGivesAnEmptyObject) {
  const nlohmann::json ranks = {{{"rank", 0}, {"host", "h"}}, {{"rank", 1}, {"host", "h"}}};
  const nlohmann::json merged = merge_rank_telemetry(ranks, {"{}", "{}"}, "h");
  EXPECT_TRUE(merged.is_object());
  EXPECT_TRUE(merged.empty());
}

}  // namespace
}  // namespace gpubench
