// Fleet outliers: a slow node against the fleet, and a slow GPU against its siblings.
#include "harness/verdict/fleet.hpp"

#include <gtest/gtest.h>

#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

ResultsDocument node(const ResultsDocument& recorded, const std::string& host, double triad_factor) {
  ResultsDocument d = recorded;
  d.run.host = host;
  for (Metric& m : d.metrics) {
    if (m.id.find("/triad/") != std::string::npos) m.value *= triad_factor;
  }
  return d;
}

TEST(Fleet, FlagsTheSlowNodeOnly) {
  const ResultsDocument recorded = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  std::vector<SourcedResults> runs;
  const double factors[] = {1.0, 1.003, 0.998, 1.001, 0.90};  // node-e is 10 % slow on triad
  const char* hosts[] = {"node-a", "node-b", "node-c", "node-d", "node-e"};
  for (int i = 0; i < 5; ++i) runs.push_back({std::string(hosts[i]) + ".json", node(recorded, hosts[i], factors[i])});
  const FleetReport report = analyse_fleet(runs);
  EXPECT_EQ(report.nodes, 5);
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].scope, "node");
  EXPECT_EQ(report.findings[0].host, "node-e");
  EXPECT_EQ(report.findings[0].metric, "memory/triad/1GiB/gpu0/bandwidth");
  EXPECT_NEAR(report.findings[0].deviation, -0.10, 0.01);
}

TEST(Fleet, FlagsAGpuSlowerThanItsSiblings) {
  ResultsDocument d = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  const std::size_t n = d.metrics.size();
  for (int gpu = 1; gpu < 4; ++gpu) {
    for (std::size_t i = 0; i < n; ++i) {
      Metric m = d.metrics[i];
      m.id.replace(m.id.find("/gpu0/"), 6, "/gpu" + std::to_string(gpu) + "/");
      if (gpu == 2 && m.id.find("/copy/") != std::string::npos) m.value *= 0.8;
      d.metrics.push_back(m);
    }
  }
  const FleetReport report = analyse_fleet({{"one-node.json", d}});
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].scope, "gpu");
  EXPECT_EQ(*report.findings[0].gpu, 2);
  EXPECT_EQ(report.findings[0].metric, "memory/copy/1GiB/gpu2/bandwidth");
}

// Against the other GPU, not the mean of both: 5 % slower is 2.6 % below the two's mean, inside memory's 3 %.
TEST(Fleet, OfTwoGpusTheOneFivePercentSlowerAtMemoryIsFlaggedAgainstTheOther) {
  ResultsDocument d = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  const std::size_t n = d.metrics.size();
  for (std::size_t i = 0; i < n; ++i) {
    Metric m = d.metrics[i];
    m.id.replace(m.id.find("/gpu0/"), 6, "/gpu1/");
    if (m.id.find("/triad/") != std::string::npos) m.value *= 0.95;
    d.metrics.push_back(m);
  }
  const FleetReport report = analyse_fleet({{"two-gpus.json", d}});
  ASSERT_EQ(report.findings.size(), 1u);
  EXPECT_EQ(report.findings[0].metric, "memory/triad/1GiB/gpu1/bandwidth");
  EXPECT_NEAR(report.findings[0].deviation, -0.05, 1e-9);
  EXPECT_NE(report.findings[0].reason.find("against the other GPU of this node"), std::string::npos) << report.findings[0].reason;
}

}  // namespace
}  // namespace gpubench
