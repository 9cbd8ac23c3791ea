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

}  // namespace
}  // namespace gpubench
