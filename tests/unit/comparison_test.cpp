#include "harness/report/comparison.hpp"

#include <gtest/gtest.h>

#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

TEST(Comparison, RatiosAgainstTheFirstRunAndUnsharedMetricsListed) {
  const std::string check = std::string(GPUBENCH_TEST_DATA) + "/check";
  std::vector<SourcedResults> runs = {{"a", read_results_file(check + "/healthy_1.json")},
                                      {"b", read_results_file(check + "/mixed.json")}};
  runs[1].results.environment["gpus"][0]["name"] = "NVIDIA H100 80GB HBM3";
  const Comparison c = compare_runs(runs, "", "ratio");
  EXPECT_EQ(c.labels[1], "vm / NVIDIA H100 80GB HBM3");
  ASSERT_EQ(c.rows.size(), 5u);  // add and triad are missing from b; read/4GiB only in b
  EXPECT_EQ(c.not_shared.size(), 3u);
  EXPECT_EQ(c.rows[0].metric, "memory/write/1GiB/gpu0/bandwidth") << "sorted by largest change";
  EXPECT_NEAR(c.rows[0].ratios[1], 0.90, 1e-9);
  EXPECT_DOUBLE_EQ(c.rows[0].ratios[0], 1.0);
  EXPECT_EQ(compare_runs(runs, "copy", "metric").rows.size(), 1u);
  EXPECT_THROW(compare_runs(runs, "(", "metric"), std::invalid_argument);
  EXPECT_THROW(compare_runs(runs, "", "colour"), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
