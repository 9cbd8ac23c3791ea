// The finding of a GPU whose aggregate copy bandwidth falls well below its siblings': the 10 % line against the
// median of the other GPUs, two GPUs and eight, what it leaves alone (fast GPUs, other ids, unusable values).
#include "harness/verdict/sibling_aggregates.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

namespace gpubench {
namespace {

Metric gpu_metric(const std::string& variant, int gpu, double value, const std::string& size = "512MiB") {
  Metric m;
  m.benchmark = "p2p/" + variant + "/" + size + "/gpu" + std::to_string(gpu);
  m.id = m.benchmark + "/bandwidth";
  m.family = "p2p";
  m.device = gpu;
  m.value = value;
  m.unit = "GB/s";
  m.better = Better::Higher;
  m.samples = {value};
  m.statistics = summarize(m.samples);
  return m;
}

std::vector<Metric> every_gpu(const std::string& variant, const std::vector<double>& values) {
  std::vector<Metric> metrics;
  for (std::size_t gpu = 0; gpu < values.size(); ++gpu) metrics.push_back(gpu_metric(variant, static_cast<int>(gpu), values[gpu]));
  return metrics;
}

TEST(SiblingAggregates, ReadsOnlyTheConcurrentPatterns) {
  EXPECT_TRUE(is_concurrent_pattern("p2p/ce_all_to_one/512MiB/gpu0/bandwidth"));
  EXPECT_TRUE(is_concurrent_pattern("p2p/sm_one_to_all/512MiB/gpu7/bandwidth"));
  EXPECT_FALSE(is_concurrent_pattern("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"));
  EXPECT_FALSE(is_concurrent_pattern("pcie/host_to_all/pinned/512MiB/gpu0/bandwidth"));
  EXPECT_FALSE(is_concurrent_pattern("memory/ce_all_to_one/gpu0/bandwidth"));
  EXPECT_FALSE(is_concurrent_pattern("p2p"));
}

TEST(SiblingAggregates, HealthyGpusGiveNoFinding) {
  // Eight H200s all to one: 5 % apart at the most, and one fast GPU.
  std::vector<Metric> metrics = every_gpu("ce_all_to_one", {700, 690, 705, 698, 667, 702, 701, 760});
  EXPECT_TRUE(find_slow_siblings(metrics).empty());
}

TEST(SiblingAggregates, FlagsAGpuBelowNinetyPercentOfTheOthersMedian) {
  // gpu3 lost an NVSwitch plane: 3/4 of its links.
  const std::vector<Metric> metrics = every_gpu("ce_one_to_all", {700, 696, 704, 525, 700, 698, 702, 701});
  const std::vector<SiblingFinding> findings = find_slow_siblings(metrics);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].metric, "p2p/ce_one_to_all/512MiB/gpu3/bandwidth");
  EXPECT_EQ(findings[0].gpu, 3);
  EXPECT_DOUBLE_EQ(findings[0].reference, 700);  // the median of the seven others
  EXPECT_NEAR(findings[0].deviation, -0.25, 1e-12);
  EXPECT_EQ(findings[0].reference_metrics.size(), 7u);
  EXPECT_EQ(findings[0].reason, "-25.0 % against the median of the other 7 GPUs (700 GB/s)");
}

TEST(SiblingAggregates, TwoSlowGpusOfEightAreEachFlaggedAgainstTheOthersMedian) {
  // gpu3 and gpu5 share a faulty NVSwitch plane: each at 525 of 700. gpu3's reference is the median of the six
  // 700s and gpu5's 525, which is 700 (-25 %); a healthy GPU's others hold both 525s and five 700s: median 700, 0 %.
  const std::vector<Metric> metrics = every_gpu("ce_all_to_one", {700, 700, 700, 525, 700, 525, 700, 700});
  const std::vector<SiblingFinding> findings = find_slow_siblings(metrics);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].gpu, 3);
  EXPECT_EQ(findings[1].gpu, 5);
  for (const SiblingFinding& f : findings) {
    EXPECT_DOUBLE_EQ(f.reference, 700);
    EXPECT_NEAR(f.deviation, -0.25, 1e-12);
  }
}

TEST(SiblingAggregates, FourGpusTakeTheMedianOfTheOtherThree) {
  // gpu3 at 500 against {700, 690, 710}: median 700, -28.6 %; gpu1's others {700, 710, 500}: median 700, -1.4 %.
  const std::vector<SiblingFinding> findings = find_slow_siblings(every_gpu("ce_one_to_all", {700, 690, 710, 500}));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].gpu, 3);
  EXPECT_DOUBLE_EQ(findings[0].reference, 700);
  EXPECT_EQ(findings[0].reason, "-28.6 % against the median of the other 3 GPUs (700 GB/s)");
}

TEST(SiblingAggregates, TheLineIsTenPercent) {
  // 89.9 % of the other's figure is flagged, 90.1 % is not: two GPUs, each the other's reference.
  EXPECT_EQ(find_slow_siblings(every_gpu("ce_all_to_one", {1000, 899})).size(), 1u);
  EXPECT_TRUE(find_slow_siblings(every_gpu("ce_all_to_one", {1000, 901})).empty());
  SiblingOptions strict;
  strict.tolerance = 0.05;
  EXPECT_EQ(find_slow_siblings(every_gpu("ce_all_to_one", {1000, 940}), strict).size(), 1u);
}

TEST(SiblingAggregates, TwoGpusFlagOnlyTheSlowerOne) {
  const std::vector<SiblingFinding> findings = find_slow_siblings(every_gpu("sm_all_to_one", {360, 240}));
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].gpu, 1);
  EXPECT_DOUBLE_EQ(findings[0].reference, 360);
}

TEST(SiblingAggregates, ComparesOnlyTheSameIdAndWorstComesFirst) {
  std::vector<Metric> metrics = every_gpu("ce_all_to_one", {700, 700, 560});  // -20 %
  for (const Metric& m : every_gpu("ce_one_to_all", {700, 350, 700})) metrics.push_back(m);  // -50 %
  metrics.push_back(gpu_metric("ce_all_to_one", 0, 100, "64MiB"));  // alone at its size: no siblings
  const std::vector<SiblingFinding> findings = find_slow_siblings(metrics);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].metric, "p2p/ce_one_to_all/512MiB/gpu1/bandwidth");
  EXPECT_EQ(findings[1].metric, "p2p/ce_all_to_one/512MiB/gpu2/bandwidth");
}

TEST(SiblingAggregates, IgnoresOneGpuAndUnusableValues) {
  EXPECT_TRUE(find_slow_siblings(every_gpu("ce_all_to_one", {700})).empty());
  EXPECT_TRUE(find_slow_siblings(every_gpu("ce_all_to_one", {700, 0})).empty());
  EXPECT_TRUE(find_slow_siblings(every_gpu("ce_all_to_one", {700, -1})).empty());
  EXPECT_TRUE(find_slow_siblings(every_gpu("ce_all_to_one", {700, std::nan("")})).empty());
  EXPECT_TRUE(find_slow_siblings({}).empty());
}

}  // namespace
}  // namespace gpubench
