#include "harness/report/comparison.hpp"

#include <gtest/gtest.h>

#include "harness/results/results_io.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {
namespace {

TEST(Comparison, RatiosAgainstTheFirstRunAndUnsharedMetricsListed) {
  const std::string check = std::string(GPUBENCH_TEST_DATA) + "/check";
  std::vector<SourcedResults> runs = {{"a.json", read_results_file(check + "/healthy_1.json")},
                                      {"b.json", read_results_file(check + "/mixed.json")}};
  runs[1].results.environment["gpus"][0]["name"] = "NVIDIA H100 80GB HBM3";
  const Comparison c = compare_runs(runs, "", "ratio");
  ASSERT_EQ(c.runs.size(), 2u);
  EXPECT_EQ(c.runs[1].key, "[2]");
  EXPECT_EQ(c.runs[1].label.path, "b.json");
  EXPECT_EQ(c.runs[1].label.run_id, "mixed");
  EXPECT_EQ(c.runs[1].label.host, "vm");
  EXPECT_EQ(c.runs[1].label.started_at, "2026-11-29T17:05:48Z");
  EXPECT_EQ(c.runs[1].label.gpus, "1 x NVIDIA H100 80GB HBM3");
  ASSERT_EQ(c.rows.size(), 5u);  // add and triad are missing from b; read/4GiB only in b
  EXPECT_EQ(c.not_shared.size(), 3u);
  EXPECT_EQ(c.not_shared[0], "memory/add/1GiB/gpu0/bandwidth (only in: [1])");
  EXPECT_EQ(c.rows[0].metric, "memory/write/1GiB/gpu0/bandwidth") << "sorted by largest change";
  EXPECT_NEAR(c.rows[0].ratios[1], 0.90, 1e-9);
  EXPECT_DOUBLE_EQ(c.rows[0].ratios[0], 1.0);
  ASSERT_EQ(c.rows[0].against_first.size(), 1u);
  EXPECT_EQ(c.rows[0].against_first[0].direction, Direction::Worse);
  EXPECT_EQ(c.rows[0].against_first[0].noise, Noise::TooFewRepetitions) << "three repetitions a side";
  EXPECT_FALSE(c.rows[0].against_first[0].p_value);
  EXPECT_EQ(compare_runs(runs, "copy", "metric").rows.size(), 1u);
  EXPECT_THROW(compare_runs(runs, "(", "metric"), std::invalid_argument);
  EXPECT_THROW(compare_runs(runs, "", "colour"), std::invalid_argument);
}

Metric measured(Better better, std::vector<double> samples) {
  Metric m;
  m.better = better;
  m.samples = std::move(samples);
  m.value = median(m.samples);
  return m;
}

TEST(Comparison, DirectionFollowsTheMetricsBetterField) {
  const Metric fast = measured(Better::Higher, {100, 101, 102, 103});
  const Metric slow = measured(Better::Higher, {90, 91, 92, 93});
  EXPECT_EQ(difference_between(fast, slow).direction, Direction::Worse);
  EXPECT_EQ(difference_between(slow, fast).direction, Direction::Better);
  const Metric short_time = measured(Better::Lower, {90, 91, 92, 93});
  const Metric long_time = measured(Better::Lower, {100, 101, 102, 103});
  EXPECT_EQ(difference_between(short_time, long_time).direction, Direction::Worse) << "a time that grew";
  EXPECT_EQ(difference_between(long_time, short_time).direction, Direction::Better);
  EXPECT_EQ(difference_between(fast, fast).direction, Direction::Same);
}

TEST(Comparison, NoiseIsJudgedByTheUTestOfTheRepetitions) {
  // Four against four that do not overlap: p = 2/70 < 0.05, beyond the noise.
  const Difference apart = difference_between(measured(Better::Higher, {100, 101, 102, 103}),
                                               measured(Better::Higher, {90, 91, 92, 93}));
  EXPECT_EQ(apart.noise, Noise::Beyond);
  ASSERT_TRUE(apart.p_value);
  EXPECT_NEAR(*apart.p_value, 2.0 / 70, 1e-12);
  // Interleaved: the medians differ, the repetitions do not tell the runs apart.
  const Difference mixed = difference_between(measured(Better::Higher, {100, 102, 104, 106}),
                                              measured(Better::Higher, {101, 103, 105, 99}));
  EXPECT_EQ(mixed.noise, Noise::Within);
  EXPECT_EQ(mixed.direction, Direction::Worse);
  // Three repetitions on one side: no p-value at all.
  const Difference few = difference_between(measured(Better::Higher, {100, 101, 102}),
                                            measured(Better::Higher, {90, 91, 92, 93, 94}));
  EXPECT_EQ(few.noise, Noise::TooFewRepetitions);
  EXPECT_FALSE(few.p_value);
  EXPECT_EQ(few.first_repetitions, 3u);
  EXPECT_EQ(few.repetitions, 5u);
}

// A ratio that prints as 1.000 is neither better nor worse; one that prints as 0.999 or 1.001 is.
TEST(Comparison, ARatioThatRoundsToOneIsTheSame) {
  const Metric first = measured(Better::Lower, {10000, 10000, 10000});
  EXPECT_EQ(difference_between(first, measured(Better::Lower, {10004, 10004, 10004})).direction, Direction::Same);
  EXPECT_EQ(difference_between(first, measured(Better::Lower, {9996, 9996, 9996})).direction, Direction::Same);
  EXPECT_EQ(difference_between(first, measured(Better::Lower, {10006, 10006, 10006})).direction, Direction::Worse);
  EXPECT_EQ(difference_between(first, measured(Better::Lower, {9994, 9994, 9994})).direction, Direction::Better);
  const Metric zero = measured(Better::Higher, {0, 0, 0});
  EXPECT_EQ(difference_between(zero, zero).direction, Direction::Same);
  EXPECT_EQ(difference_between(zero, measured(Better::Higher, {1, 1, 1})).direction, Direction::Better);
}

// With too few repetitions for the test, what can be said: whether the runs' repetitions are apart, and how often
// two runs of the same thing are apart by chance, 2 / C(n + m, n).
TEST(Comparison, TooFewRepetitionsToTestStillSayWhetherTheRunsAreApart) {
  const Metric first = measured(Better::Higher, {100, 101, 102});
  EXPECT_TRUE(difference_between(first, measured(Better::Higher, {103, 104, 105})).apart);
  EXPECT_TRUE(difference_between(first, measured(Better::Higher, {97, 98, 99.5})).apart);
  EXPECT_FALSE(difference_between(first, measured(Better::Higher, {102, 104, 105})).apart) << "a tie overlaps";
  EXPECT_FALSE(difference_between(first, measured(Better::Higher, {99, 104, 105})).apart);
  EXPECT_DOUBLE_EQ(chance_apart(3, 3), 0.1);
  EXPECT_DOUBLE_EQ(chance_apart(2, 3), 0.2);
  EXPECT_NEAR(chance_apart(4, 4), 2.0 / 70, 1e-15) << "the exact U test's smallest two-sided p";
  EXPECT_DOUBLE_EQ(chance_apart(1, 1), 1.0);
}

TEST(Comparison, SumsOverANodesGpusAreKnownByTheirIds) {
  EXPECT_TRUE(summed_over_the_nodes_gpus("pcie/h2d/pinned/1GiB/all_gpus/bandwidth"));
  EXPECT_TRUE(summed_over_the_nodes_gpus("p2p/ce_all_to_one/512MiB/gpu0/bandwidth"));
  EXPECT_TRUE(summed_over_the_nodes_gpus("p2p/sm_one_to_all/512MiB/gpu3/bandwidth"));
  EXPECT_FALSE(summed_over_the_nodes_gpus("pcie/h2d/pinned/1GiB/gpu0/bandwidth"));
  EXPECT_FALSE(summed_over_the_nodes_gpus("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"));
  EXPECT_FALSE(summed_over_the_nodes_gpus("nccl/allreduce/ring/simple/1GiB/out_of_place/busbw")) << "busbw is per rank";
  EXPECT_FALSE(summed_over_the_nodes_gpus("memory/ce_all_to_one/gpu0/bandwidth")) << "only p2p's patterns";
}

// Per family and for all: directions counted, clear changes as check --against judges them (no baseline here: the
// family's default tolerance and the repetitions), and the geometric mean of the ratios taken so that above 1 is
// better, without the figures that measure the host, which are not judged against one run.
TEST(Comparison, EachLaterRunIsSummarisedPerFamily) {
  const auto document = [](std::vector<std::pair<std::string, Metric>> metrics) {
    SourcedResults run;
    run.path = "run.json";
    run.results.run.devices = {0};
    run.results.environment["gpus"] = {{{"index", 0}, {"name", "NVIDIA H200"}, {"uuid", "GPU-1"}}};
    for (auto& [id, metric] : metrics) {
      metric.id = id;
      run.results.metrics.push_back(metric);
    }
    return run;
  };
  const std::vector<SourcedResults> runs = {
      document({{"memory/read/1GiB/gpu0/bandwidth", measured(Better::Higher, {100, 100, 100})},
                {"memory/write/1GiB/gpu0/bandwidth", measured(Better::Higher, {100, 100, 100})},
                {"gemm/fp32/8192x8192x8192/gpu0/tflops", measured(Better::Higher, {50, 50, 50})},
                {"launch/launch_to_start/gpu0/latency", measured(Better::Lower, {10, 10, 10})}}),
      document({{"memory/read/1GiB/gpu0/bandwidth", measured(Better::Higher, {200, 200, 200})},
                {"memory/write/1GiB/gpu0/bandwidth", measured(Better::Higher, {100, 100, 100})},
                {"gemm/fp32/8192x8192x8192/gpu0/tflops", measured(Better::Higher, {25, 25, 25})},
                {"launch/launch_to_start/gpu0/latency", measured(Better::Lower, {20, 20, 20})}})};
  const Comparison c = compare_runs(runs, "", "metric");
  ASSERT_EQ(c.summaries.size(), 1u);
  const std::vector<FamilySummary>& families = c.summaries[0].families;
  ASSERT_EQ(families.size(), 4u);
  EXPECT_EQ(families[0].family, "gemm");
  EXPECT_EQ(families[0].clearly_worse, 1) << "half the TFLOP/s, past the 5 % tolerance and the repetitions";
  EXPECT_NEAR(*families[0].geomean_gain, 0.5, 1e-12);
  EXPECT_EQ(families[1].family, "launch");
  EXPECT_EQ(families[1].worse, 1);
  EXPECT_EQ(families[1].clearly_worse, 0) << "twice the latency, but one run cannot judge the host";
  EXPECT_EQ(families[1].host_bound, 1);
  EXPECT_FALSE(families[1].geomean_gain);
  EXPECT_EQ(families[2].family, "memory");
  EXPECT_EQ(families[2].better, 1);
  EXPECT_EQ(families[2].clearly_better, 1);
  EXPECT_EQ(families[2].same, 1);
  EXPECT_NEAR(*families[2].geomean_gain, std::sqrt(2.0), 1e-12);
  EXPECT_EQ(families[3].family, "all");
  EXPECT_EQ(families[3].metrics, 4);
  EXPECT_EQ(families[3].host_bound, 1);
  EXPECT_NEAR(*families[3].geomean_gain, 1.0, 1e-12) << "(2 x 1 x 0.5)^(1/3), the latency left out";
  EXPECT_TRUE(c.summaries[0].same_node);
}

}  // namespace
}  // namespace gpubench
