// Peer link findings: a pair slower than the others of its link kind, a direction slower than its reverse,
// latencies judged the other way round, and what is left alone (fast pairs, other link kinds, other ids).
#include "harness/verdict/link_symmetry.hpp"

#include <gtest/gtest.h>

#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench {
namespace {

Metric pair_metric(const std::string& benchmark, int from, int to, double value, const std::string& link,
                   const std::string& figure = "bandwidth", Better better = Better::Higher) {
  Metric m;
  m.benchmark = benchmark + "/gpu" + std::to_string(from) + "-gpu" + std::to_string(to);
  m.id = m.benchmark + "/" + figure;
  m.family = "p2p";
  m.device = from;
  m.value = value;
  m.unit = better == Better::Higher ? "GB/s" : "ns";
  m.better = better;
  m.samples = {value};
  m.statistics = summarize(m.samples);
  if (!link.empty()) m.params["link"] = link;
  return m;
}

// Every ordered pair of `gpus` GPUs at `value`, all joined by `link`.
std::vector<Metric> all_pairs(const std::string& benchmark, int gpus, double value, const std::string& link) {
  std::vector<Metric> metrics;
  for (int a = 0; a < gpus; ++a) {
    for (int b = 0; b < gpus; ++b) {
      if (a != b) metrics.push_back(pair_metric(benchmark, a, b, value, link));
    }
  }
  return metrics;
}

Metric& find(std::vector<Metric>& metrics, const std::string& id) {
  for (Metric& m : metrics) {
    if (m.id == id) return m;
  }
  throw std::runtime_error("no metric " + id);
}

TEST(LinkSymmetry, HealthyPairsGiveNoFinding) {
  std::vector<Metric> metrics = all_pairs("p2p/ce_unidir/1GiB", 4, 390, "NV18");
  find(metrics, "p2p/ce_unidir/1GiB/gpu2-gpu3/bandwidth").value = 360;  // 7.7 % below the rest: within tolerance
  find(metrics, "p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth").value = 421;  // 8 % fast: never a problem
  EXPECT_TRUE(find_link_asymmetries(metrics).empty());
}

TEST(LinkSymmetry, FlagsAPairWellBelowTheMedianOfItsLinkKind) {
  std::vector<Metric> metrics = all_pairs("p2p/ce_unidir/1GiB", 4, 390, "NV18");
  // gpu1 and gpu2 each way are both slow: no direction is below its reverse, but both are below the others.
  find(metrics, "p2p/ce_unidir/1GiB/gpu1-gpu2/bandwidth").value = 300;
  find(metrics, "p2p/ce_unidir/1GiB/gpu2-gpu1/bandwidth").value = 302;
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  ASSERT_EQ(findings.size(), 2u);
  EXPECT_EQ(findings[0].metric, "p2p/ce_unidir/1GiB/gpu1-gpu2/bandwidth");  // worst first
  EXPECT_EQ(findings[1].metric, "p2p/ce_unidir/1GiB/gpu2-gpu1/bandwidth");
  for (const LinkFinding& f : findings) {
    EXPECT_EQ(f.rule, LinkRule::BelowLinkMedian);
    EXPECT_EQ(f.link, "NV18");
    EXPECT_DOUBLE_EQ(f.reference, 390);
    EXPECT_EQ(f.reference_metrics.size(), 12u);
    EXPECT_EQ(f.unit, "GB/s");
    EXPECT_NE(f.reason.find("median of 12 NV18 pairs"), std::string::npos) << f.reason;
  }
  EXPECT_NEAR(findings[0].deviation, 300.0 / 390 - 1, 1e-12);
  EXPECT_NE(findings[0].reason.find("-23.1 %"), std::string::npos) << findings[0].reason;
}

TEST(LinkSymmetry, EightGpusAGpuBehindAWeakPortIsFlaggedOnEachOfItsFourteenPairs) {
  // All 56 ordered pairs of eight GPUs at 390 GB/s, but gpu5's (7 out, 7 in) at 3/4 of it, 292.5: the median of the
  // 56 is still 390 (42 of them), so each of gpu5's 14 is 25 % below it; each also equals its reverse, so no
  // direction is below the other.
  std::vector<Metric> metrics = all_pairs("p2p/ce_unidir/1GiB", 8, 390, "NV18");
  ASSERT_EQ(metrics.size(), 56u);
  for (Metric& m : metrics) {
    if (m.id.find("gpu5") != std::string::npos) m.value = 292.5;
  }
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  ASSERT_EQ(findings.size(), 14u);
  for (const LinkFinding& f : findings) {
    EXPECT_EQ(f.rule, LinkRule::BelowLinkMedian) << f.metric;
    EXPECT_NE(f.metric.find("gpu5"), std::string::npos) << f.metric;
    EXPECT_DOUBLE_EQ(f.reference, 390);
    EXPECT_NEAR(f.deviation, -0.25, 1e-12);
    EXPECT_EQ(f.reference_metrics.size(), 56u);
    EXPECT_EQ(f.reason, "-25.0 % against the median of 56 NV18 pairs (390 GB/s)");
  }
}

TEST(LinkSymmetry, EightGpusOneSlowDirectionIsBelowBothItsKindAndItsReverse) {
  // gpu2 -> gpu6 at 300 of 390: 23.1 % below the median of the 56 and below gpu6 -> gpu2.
  std::vector<Metric> metrics = all_pairs("p2p/ce_unidir/1GiB", 8, 390, "NV18");
  find(metrics, "p2p/ce_unidir/1GiB/gpu2-gpu6/bandwidth").value = 300;
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  ASSERT_EQ(findings.size(), 2u);
  std::set<LinkRule> rules;
  for (const LinkFinding& f : findings) {
    EXPECT_EQ(f.metric, "p2p/ce_unidir/1GiB/gpu2-gpu6/bandwidth");
    EXPECT_DOUBLE_EQ(f.reference, 390);
    EXPECT_NEAR(f.deviation, 300.0 / 390 - 1, 1e-12);
    rules.insert(f.rule);
  }
  EXPECT_EQ(rules, (std::set<LinkRule>{LinkRule::BelowLinkMedian, LinkRule::BelowReverse}));
}

TEST(LinkSymmetry, ComparesPairsOnlyWithTheSameLinkKindAndId) {
  // Two NVLink pairs and two PCIe pairs: the PCIe ones are slower by nature, not outliers.
  std::vector<Metric> metrics = {
      pair_metric("p2p/ce_unidir/1GiB", 0, 1, 390, "NV18"), pair_metric("p2p/ce_unidir/1GiB", 1, 0, 391, "NV18"),
      pair_metric("p2p/ce_unidir/1GiB", 2, 3, 392, "NV18"), pair_metric("p2p/ce_unidir/1GiB", 0, 2, 50, "SYS"),
      pair_metric("p2p/ce_unidir/1GiB", 2, 0, 51, "SYS"),   pair_metric("p2p/ce_unidir/1GiB", 1, 3, 52, "SYS"),
      // Another size: its own group, even with the same link kind.
      pair_metric("p2p/ce_unidir/64KiB", 0, 1, 40, "NV18"), pair_metric("p2p/ce_unidir/64KiB", 1, 0, 41, "NV18"),
      pair_metric("p2p/ce_unidir/64KiB", 2, 3, 40, "NV18"),
  };
  EXPECT_TRUE(find_link_asymmetries(metrics).empty());
}

TEST(LinkSymmetry, NeedsEnoughPairsOfAKindForAMedian) {
  std::vector<Metric> metrics = {pair_metric("p2p/sm_write/1GiB", 0, 2, 390, "NV18"),
                                 pair_metric("p2p/sm_write/1GiB", 1, 3, 300, "NV18")};
  EXPECT_TRUE(find_link_asymmetries(metrics).empty());
  LinkSymmetryOptions two;
  two.min_link_pairs = 2;
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics, two);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].metric, "p2p/sm_write/1GiB/gpu1-gpu3/bandwidth");
  EXPECT_DOUBLE_EQ(findings[0].reference, 345);
}

TEST(LinkSymmetry, FlagsADirectionWellBelowItsReverse) {
  // Two GPUs: too few pairs for a median, but one direction is 15 % below the other.
  std::vector<Metric> metrics = {pair_metric("p2p/ce_unidir/1GiB", 0, 1, 390, "NV18"),
                                 pair_metric("p2p/ce_unidir/1GiB", 1, 0, 331.5, "NV18")};
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  ASSERT_EQ(findings.size(), 1u);
  const LinkFinding& f = findings[0];
  EXPECT_EQ(f.rule, LinkRule::BelowReverse);
  EXPECT_STREQ(to_string(f.rule), "below_reverse");
  EXPECT_EQ(f.metric, "p2p/ce_unidir/1GiB/gpu1-gpu0/bandwidth");
  EXPECT_DOUBLE_EQ(f.value, 331.5);
  EXPECT_DOUBLE_EQ(f.reference, 390);
  EXPECT_NEAR(f.deviation, -0.15, 1e-12);
  ASSERT_EQ(f.reference_metrics.size(), 2u);
  EXPECT_EQ(f.reference_metrics[1], "p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth");
  EXPECT_NE(f.reason.find("reverse direction p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"), std::string::npos) << f.reason;
}

TEST(LinkSymmetry, ALatencyIsWorseWhenHigher) {
  std::vector<Metric> metrics = {
      pair_metric("p2p/latency", 0, 1, 900, "NV18", "latency", Better::Lower),
      pair_metric("p2p/latency", 1, 0, 1100, "NV18", "latency", Better::Lower),
  };
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  ASSERT_EQ(findings.size(), 1u);
  EXPECT_EQ(findings[0].metric, "p2p/latency/gpu1-gpu0/latency");
  EXPECT_EQ(findings[0].unit, "ns");
  EXPECT_GT(findings[0].deviation, 0.10);
}

TEST(LinkSymmetry, BothRulesCanFlagTheSameMetric) {
  std::vector<Metric> metrics = all_pairs("p2p/ce_bidir/1GiB", 3, 770, "NV18");
  find(metrics, "p2p/ce_bidir/1GiB/gpu0-gpu2/bandwidth").value = 600;
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  ASSERT_EQ(findings.size(), 2u);
  for (const LinkFinding& f : findings) EXPECT_EQ(f.metric, "p2p/ce_bidir/1GiB/gpu0-gpu2/bandwidth");
  EXPECT_NE(findings[0].rule, findings[1].rule);
}

TEST(LinkSymmetry, IgnoresOtherIdsUnusableValuesAndMissingLinks) {
  std::vector<Metric> metrics = all_pairs("p2p/staged_host/1GiB", 3, 50, "");
  find(metrics, "p2p/staged_host/1GiB/gpu0-gpu1/bandwidth").value = 0;  // no figure to judge
  Metric per_gpu = pair_metric("memory/triad/1GiB", 0, 1, 1, "NV18");
  per_gpu.id = "memory/triad/1GiB/gpu0/bandwidth";
  metrics.push_back(per_gpu);
  const std::vector<LinkFinding> findings = find_link_asymmetries(metrics);
  // gpu1-gpu0 (50) against gpu0-gpu1 (0): a zero is never a reference, and never flagged.
  EXPECT_TRUE(findings.empty());
  find(metrics, "p2p/staged_host/1GiB/gpu2-gpu1/bandwidth").value = 20;
  const std::vector<LinkFinding> flagged = find_link_asymmetries(metrics);
  ASSERT_FALSE(flagged.empty());
  EXPECT_EQ(flagged[0].link, "unknown");
}

TEST(LinkSymmetry, OddPairIdsAreNoPairsAndNeverCrash) {
  std::vector<Metric> metrics = all_pairs("p2p/ce_unidir/1GiB", 3, 50, "NV18");
  for (const std::string& odd : std::vector<std::string>{"p2p/x/gpu1234567-gpu0/bandwidth", "p2p/x/gpu0-gpu1-gpu2/bandwidth", "gpu0-gpu1/bandwidth",
                                 "p2p/x/gpu0-gpu1/", "p2p/x/gpu0-gpu" + std::string(50000, '1') + "/bandwidth",
                                 "p2p/" + std::string(50000, 'x') + "/gpu0-gpu1/bandwidth"}) {
    Metric m = pair_metric("p2p/x", 0, 1, 1, "NV18");
    m.id = odd;
    metrics.push_back(m);
  }
  EXPECT_TRUE(find_link_asymmetries(metrics).empty()) << "none is a pair with a partner to compare with";
}

}  // namespace
}  // namespace gpubench
