// Change points on synthetic series with a fixed seed, and history naming what changed in the environment.
#include "harness/verdict/change_points.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "harness/results/results_io.hpp"
#include "harness/verdict/history.hpp"

namespace gpubench {
namespace {

std::vector<double> noisy_series(std::size_t n, std::size_t step_at, double step, double noise, unsigned seed) {
  std::mt19937 random(seed);
  std::normal_distribution<double> jitter(0.0, noise);
  std::vector<double> series;
  for (std::size_t i = 0; i < n; ++i) series.push_back(100.0 * (i < step_at ? 1.0 : 1.0 + step) * (1.0 + jitter(random)));
  return series;
}

TEST(ChangePoints, FindsAFivePercentStepUnderOnePercentNoiseWhereItIs) {
  for (unsigned seed : {1u, 2u, 3u}) {
    const std::vector<ChangePoint> points = find_change_points(noisy_series(40, 25, -0.05, 0.01, seed));
    ASSERT_EQ(points.size(), 1u) << "seed " << seed;
    EXPECT_EQ(points[0].index, 25u) << "seed " << seed;
    EXPECT_NEAR(points[0].relative_change, -0.05, 0.01);
    EXPECT_LE(points[0].p_value, 0.05);
  }
}

TEST(ChangePoints, AStationarySeriesWithTheSameNoiseHasNone) {
  for (unsigned seed : {1u, 2u, 3u, 4u, 5u}) {
    EXPECT_TRUE(find_change_points(noisy_series(40, 40, 0.0, 0.01, seed)).empty()) << "seed " << seed;
  }
}

TEST(ChangePoints, TwoStepsAreBothFound) {
  std::vector<double> series = noisy_series(30, 15, 0.05, 0.01, 9);
  const std::vector<double> tail = noisy_series(15, 0, 0.12, 0.01, 10);
  series.insert(series.end(), tail.begin(), tail.end());
  // Points 0-6 of this draw average 2 % below points 7-14, a shift the test also finds (p = 0.003); how
  // often such chance shifts are reported is measured on flat series in history_detection_test.cpp.
  std::vector<std::size_t> indexes;
  for (const ChangePoint& point : find_change_points(series)) indexes.push_back(point.index);
  EXPECT_NE(std::find(indexes.begin(), indexes.end(), 15u), indexes.end());
  EXPECT_NE(std::find(indexes.begin(), indexes.end(), 30u), indexes.end());
}

// The smallest p-value 1 / (permutations + 1) is a tenth of the significance, so p <= significance is reachable.
TEST(ChangePoints, EnoughPermutationsForTheSignificance) {
  EXPECT_EQ(permutations_for(0.01), 999);
  EXPECT_EQ(permutations_for(0.02), 499);
  EXPECT_EQ(permutations_for(0.05), 199);
  EXPECT_EQ(permutations_for(0.001), 9999);
}

TEST(ChangePoints, ShortSeriesHaveNone) {
  EXPECT_TRUE(find_change_points({}).empty());
  EXPECT_TRUE(find_change_points({1, 2, 3, 4, 5}).empty());
}

TEST(History, NamesTheEnvironmentChangeAtTheStep) {
  const ResultsDocument recorded = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  const std::vector<double> triad = noisy_series(30, 18, -0.05, 0.01, 4);
  std::vector<SourcedResults> runs;
  for (std::size_t i = 0; i < triad.size(); ++i) {
    ResultsDocument d = recorded;
    d.run.id = "run-" + std::to_string(i);
    char date[32];
    std::snprintf(date, sizeof date, "2026-10-%02zuT02:00:00Z", i + 1);
    d.run.started_at = date;
    d.environment["versions"]["driver"] = i < 18 ? "570.133.20" : "580.159.04";
    for (Metric& m : d.metrics) {
      if (m.id == "memory/triad/1GiB/gpu0/bandwidth") m.value = 4389 * triad[i] / 100;
    }
    runs.push_back({"run-" + std::to_string(i) + ".json", d});
  }
  const HistoryReport report = analyse_history(runs);
  ASSERT_EQ(report.changes.size(), 1u);
  const HistoryChange& change = report.changes[0];
  EXPECT_EQ(change.metric, "memory/triad/1GiB/gpu0/bandwidth");
  EXPECT_EQ(change.date, "2026-10-19T02:00:00Z");
  EXPECT_TRUE(change.worse);
  EXPECT_GE(change.confidence, 0.95);
  ASSERT_EQ(change.environment_changes.size(), 1u);
  EXPECT_EQ(change.environment_changes[0], "driver 570.133.20 -> 580.159.04");
}

}  // namespace
}  // namespace gpubench
