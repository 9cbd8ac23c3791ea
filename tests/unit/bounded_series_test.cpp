// A stress document of any length has a bounded size: each series keeps the entries of its last day as recorded (at
// most kMostRecentEntries) and folds the earlier ones into at most kMostBuckets buckets of whole minutes, each
// keeping what the verdict looked for (the hottest and lowest readings, every clock-event reason). A run of a day
// or less is written as before.
#include "harness/stress/bounded_series.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "harness/stress/stress_document.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

std::vector<double> every(double step_s, double duration_s) {
  std::vector<double> times;
  for (double t = 0; t < duration_s; t += step_s) times.push_back(t);
  return times;
}

TEST(BoundedSeries, ADayOrLessIsKeptAsRecorded) {
  const BoundedLayout layout = bounded_layout(every(1, 86400));
  EXPECT_TRUE(layout.buckets.empty());
  EXPECT_EQ(layout.first_recent, 0u);
  EXPECT_TRUE(bounded_layout({}).buckets.empty());
  EXPECT_EQ(bounded_values({1, 2, 3}, {7, 8, 9}), (std::vector<double>{7, 8, 9}));
}

// From a day and a half to a year: the entries of the last day as recorded; every earlier entry in exactly one
// bucket, in order, inside its bucket's time; at most kMostBuckets buckets of whole minutes.
TEST(BoundedSeries, AnyDurationHasAtMostItsBucketsAndTheLastDay) {
  for (const double days : {1.5, 30.0, 365.0}) {
    const double step = days > 100 ? 10 : 1;  // a year at a reading every 10 s: the same layout, less memory
    const std::vector<double> times = every(step, days * 86400);
    const BoundedLayout layout = bounded_layout(times);
    EXPECT_EQ(times.size() - layout.first_recent, std::min<std::size_t>(kMostRecentEntries, 86400 / step + 1)) << days;
    EXPECT_GE(times[layout.first_recent], times.back() - 86400) << days << " days";
    ASSERT_FALSE(layout.buckets.empty()) << days << " days";
    EXPECT_LE(layout.buckets.size(), kMostBuckets) << days << " days";
    std::size_t next = 0;
    for (const Bucket& bucket : layout.buckets) {
      EXPECT_EQ(bucket.begin, next);
      EXPECT_LT(bucket.begin, bucket.end);
      EXPECT_EQ(std::fmod(bucket.span_s, kShortestBucketS), 0.0);
      EXPECT_GE(times[bucket.begin], bucket.start_s);
      EXPECT_LT(times[bucket.end - 1], bucket.start_s + bucket.span_s);
      next = bucket.end;
    }
    EXPECT_EQ(next, layout.first_recent) << days << " days";
  }
  EXPECT_EQ(bounded_layout(every(1, 30 * 86400)).buckets.front().span_s, 600) << "a month in 10-minute buckets";
}

// Pulse bursts come up to a hundred a second: of the last day only the last kMostRecentEntries are kept as recorded.
TEST(BoundedSeries, AFastSeriesKeepsAtMostItsLastEntriesAsRecorded) {
  const std::vector<double> times = every(0.01, 1200);
  const BoundedLayout layout = bounded_layout(times);
  EXPECT_EQ(times.size() - layout.first_recent, kMostRecentEntries);
  ASSERT_EQ(layout.buckets.size(), 6u) << "the first 336 s in buckets of a minute";
  EXPECT_EQ(layout.buckets.back().end, layout.first_recent);
}

TEST(BoundedSeries, ValuesOfABucketAreTheirMean) {
  std::vector<double> times = every(1, 60 + 86400);
  std::vector<double> values(times.size(), 5.0);
  for (std::size_t i = 0; i < 60; ++i) values[i] = i < 30 ? 1 : 3;
  const std::vector<double> kept = bounded_values(times, values);
  ASSERT_EQ(kept.size(), 86400u + 1);
  EXPECT_DOUBLE_EQ(kept[0], 2);
  EXPECT_DOUBLE_EQ(kept[1], 5);
}

json column(const json& table, const std::string& name, std::size_t row) {
  const json& names = table.at("columns");
  for (std::size_t c = 0; c < names.size(); ++c) {
    if (names[c] == name) return table.at("samples").at(row).at(c);
  }
  ADD_FAILURE() << "no column " << name;
  return nullptr;
}

// Two days on one GPU, recorded as run_stress records them (a reading a second, a window every 5 s), with one hot
// reading and one clock dip on the first day: the document folds that day into buckets that still show both, and
// the verdict, reached on every reading, fails the GPU for them.
TEST(BoundedSeries, ALongRunsDocumentKeepsTheRecentReadingsAndTheExtremesOfTheEarlierOnes) {
  GpuStressRecord gpu;
  gpu.index = 0;
  gpu.gemm_runs = 100000;
  const double duration = 2 * 86400;
  for (double t = 0; t < duration; t += 1) {
    StressSample s{t, 70, 690, 1755, 2619, 0x4, 0, 0};  // at its software power cap
    if (t == 3600) s.temperature_c = 90;
    if (t == 7200) s.sm_clock_mhz = 600, s.clock_event_reasons |= 0x8;  // a hardware slowdown
    if (t == 7300) s.power_w = -1;                                       // not readable
    gpu.telemetry.push_back(s);
  }
  for (double t = 0; t + 5 <= duration; t += 5) gpu.windows.push_back({t, t + 5, t < 86400 ? 700.0 : 690.0});
  const std::vector<GpuStressRecord> gpus = {gpu};
  const std::vector<GpuStressVerdict> verdicts = judge_stress(gpus, {});
  ResultsDocument doc;
  add_stress_to_document(gpus, verdicts, {}, duration, doc);
  const json& written = doc.stress.at("gpus").at(0);

  const json& telemetry = written.at("telemetry");
  ASSERT_EQ(telemetry.at("samples").size(), 86400u);
  EXPECT_EQ(column(telemetry, "t_s", 0), 86400) << "the last day as recorded";
  const json& buckets = telemetry.at("buckets");
  ASSERT_EQ(buckets.at("samples").size(), 1440u) << "the first day in buckets of a minute";
  long long readings = 0;
  for (std::size_t b = 0; b < buckets.at("samples").size(); ++b) {
    readings += column(buckets, "readings", b).get<long long>();
  }
  EXPECT_EQ(readings, 86400);
  const std::size_t hot = 3600 / 60, dip = 7200 / 60;
  EXPECT_EQ(column(buckets, "t_s", hot), 3600);
  EXPECT_EQ(column(buckets, "span_s", hot), 60);
  EXPECT_EQ(column(buckets, "temperature_c_max", hot), 90);
  EXPECT_NEAR(column(buckets, "temperature_c", hot).get<double>(), 70 + 20.0 / 60, 1e-9);
  EXPECT_EQ(column(buckets, "temperature_c_min", hot), 70);
  EXPECT_EQ(column(buckets, "sm_clock_mhz_min", dip), 600);
  EXPECT_EQ(column(buckets, "clock_event_reasons", dip), 0x4 | 0x8);
  EXPECT_EQ(column(buckets, "power_w", dip), 690) << "the reading NVML could not read is left out, not averaged in";
  EXPECT_EQ(column(buckets, "ecc_uncorrected", dip), 0);

  const json& windows = written.at("windows");
  ASSERT_EQ(windows.size(), 1440u + 17281u) << "the windows that start within a day of the last one, as recorded";
  EXPECT_EQ(windows[0], json({{"start_s", 0.0}, {"end_s", 60.0}, {"tflops", 700.0}, {"windows", 12},
                              {"min_tflops", 700.0}, {"max_tflops", 700.0}}));
  EXPECT_EQ(windows[1440], json({{"start_s", 86395.0}, {"end_s", 86400.0}, {"tflops", 700.0}}));
  ASSERT_EQ(doc.metrics.size(), 1u);
  EXPECT_EQ(doc.metrics[0].samples.size(), windows.size()) << "a sample per window as the document keeps them";

  std::vector<std::string> checks;
  for (const StressFinding& f : verdicts[0].findings) checks.push_back(f.check);
  EXPECT_NE(std::find(checks.begin(), checks.end(), "temperature.maximum"), checks.end()) << "judged on every reading";
  EXPECT_NE(std::find(checks.begin(), checks.end(), "throttle.hw_slowdown"), checks.end());
  EXPECT_NE(std::find(checks.begin(), checks.end(), "clock.collapse"), checks.end());
}

TEST(BoundedSeries, AShortRunsDocumentIsWrittenAsBefore) {
  GpuStressRecord gpu;
  for (int t = 0; t < 60; ++t) gpu.telemetry.push_back({double(t), 60, 500, 1700, 2619, 0, 0, 0});
  gpu.windows = {{0, 5, 760}, {5, 10, 758}};
  ResultsDocument doc;
  add_stress_to_document({gpu}, judge_stress({gpu}, {}), {}, 60, doc);
  const json& written = doc.stress.at("gpus").at(0);
  EXPECT_FALSE(written.at("telemetry").contains("buckets"));
  EXPECT_EQ(written.at("telemetry").at("samples").size(), 60u);
  EXPECT_EQ(written.at("windows"), json::parse(R"([{"start_s": 0, "end_s": 5, "tflops": 760},
                                                     {"start_s": 5, "end_s": 10, "tflops": 758}])"));
}

}  // namespace
}  // namespace gpubench
