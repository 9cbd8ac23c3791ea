// Conversion of Google Benchmark JSON into metrics: a hand-written file that makes every case appear, and
// a file recorded from gpubench-micro on an H200.
#include "harness/results/gbench_import.hpp"

#include <gtest/gtest.h>

#include <optional>

#include "benchmarks/common/benchmark_label.hpp"
#include "benchmarks/common/run_outcome.hpp"
#include "harness/results/failure_advice.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

const std::string kData = GPUBENCH_TEST_DATA;

TEST(GbenchImport, RepetitionsBecomeSamplesAndAggregatesAreIgnored) {
  const ImportedBenchmarks imported =
      import_google_benchmark_json(read_google_benchmark_file(kData + "/gbench_handwritten.json"), "memory", "gbench_handwritten.json");
  ASSERT_EQ(imported.metrics.size(), 1u);
  const Metric& triad = imported.metrics[0];
  EXPECT_EQ(triad.id, "memory/triad/1GiB/gpu0/bandwidth");
  EXPECT_EQ(triad.benchmark, "memory/triad/1GiB/gpu0");
  EXPECT_EQ(triad.family, "memory");
  EXPECT_EQ(triad.unit, "GB/s");
  EXPECT_EQ(triad.better, Better::Higher);
  ASSERT_TRUE(triad.device.has_value());
  EXPECT_EQ(*triad.device, 0);
  EXPECT_EQ(triad.samples, (std::vector<double>{4400, 4300, 4350}));
  EXPECT_DOUBLE_EQ(triad.value, 4350);  // the median
  ASSERT_TRUE(triad.peak && triad.efficiency);
  EXPECT_DOUBLE_EQ(*triad.peak, 4900);
  EXPECT_DOUBLE_EQ(*triad.efficiency, 4350.0 / 4900.0);
  EXPECT_DOUBLE_EQ(*triad.sm_clock_mhz, 1980);
  EXPECT_TRUE(triad.throttled) << "one repetition saw the software power cap";
  EXPECT_EQ(triad.params.at("launch"), "grid264xblock1024xunroll4");
}

// A repetition's entry as gpubench-micro writes it, with the figure's label carrying `params`.
nlohmann::json repetition(int index, double value, const std::map<std::string, std::string>& params) {
  FigureLabel label{"bandwidth", "GB/s", Better::Higher, 0, params};
  return {{"name", "pcie/bidirectional_h2d/pinned/1GiB/gpu0/manual_time"},
          {"run_name", "pcie/bidirectional_h2d/pinned/1GiB/gpu0/manual_time"},
          {"run_type", "iteration"},
          {"repetition_index", index},
          {"value", value},
          {"label", encode_label(label)}};
}

TEST(GbenchImport, ParamsThatDifferBetweenRepetitionsListEachRepetitionsValue) {
  const nlohmann::json doc = {
      {"benchmarks",
       {repetition(0, 49.8, {{"bytes", "1073741824"}, {"d2h_gbps", "51.09"}, {"algo", "24"}}),
        repetition(1, 47.5, {{"bytes", "1073741824"}, {"d2h_gbps", "52.44"}}),
        repetition(2, 41.4, {{"bytes", "1073741824"}, {"d2h_gbps", "51.9"}, {"algo", "24"}})}}};
  const ImportedBenchmarks imported = import_google_benchmark_json(doc, "pcie", "inline.json");
  ASSERT_EQ(imported.metrics.size(), 1u);
  const std::map<std::string, std::string>& params = imported.metrics[0].params;
  EXPECT_EQ(params.at("bytes"), "1073741824") << "the same in every repetition: one value";
  EXPECT_EQ(params.at("d2h_gbps"), "51.09; 52.44; 51.9");
  EXPECT_EQ(params.at("algo"), "24; absent; 24");
  EXPECT_EQ(imported.metrics[0].samples, (std::vector<double>{49.8, 47.5, 41.4}));
}

TEST(GbenchImport, AFigureFarPastItsPeakBecomesAFailureNotAMetric) {
  nlohmann::json entry = repetition(0, 900, {});
  entry["peak"] = 64.0;
  const ImportedBenchmarks imported = import_google_benchmark_json({{"benchmarks", {entry}}}, "pcie", "inline.json");
  EXPECT_TRUE(imported.metrics.empty());
  ASSERT_EQ(imported.failures.size(), 1u);
  EXPECT_EQ(imported.failures[0].benchmark, "pcie/bidirectional_h2d/pinned/1GiB/gpu0");
  EXPECT_NE(imported.failures[0].reason.find("implausible"), std::string::npos) << imported.failures[0].reason;
  EXPECT_NE(imported.failures[0].advice.find("gpubench bug"), std::string::npos) << imported.failures[0].advice;
  EXPECT_EQ(imported.failures[0].kind, FailureKind::ImplausibleResult);
}

// A run that measured nothing, as gpubench-micro writes it: the reason in error_message, the outcome in the label.
nlohmann::json errored(const std::string& message, const std::optional<std::string>& label) {
  nlohmann::json entry = {{"name", "pcie/h2d/pinned/1GiB/gpu0/manual_time"},
                          {"run_type", "iteration"},
                          {"error_occurred", true},
                          {"error_message", message}};
  if (label) entry["label"] = *label;
  return entry;
}

TEST(GbenchImport, TheFailuresKindComesFromItsLabelAndChoosesTheAdvice) {
  const std::string reason = "the copy gate timed out before the host opened it; the timing is void";
  const ImportedBenchmarks imported = import_google_benchmark_json(
      {{"benchmarks", {errored(reason, encode_outcome_label({RunState::Failed, FailureKind::GateTimeout}))}}}, "pcie", "inline.json");
  ASSERT_EQ(imported.failures.size(), 1u);
  EXPECT_EQ(imported.failures[0].kind, FailureKind::GateTimeout);
  EXPECT_EQ(imported.failures[0].reason, reason);
  EXPECT_EQ(imported.failures[0].advice, advice_for_failure(FailureKind::GateTimeout));
  EXPECT_EQ(imported.failures[0].advice.find("--timeout"), std::string::npos) << "not the family's time limit";
}

TEST(GbenchImport, ASkipIsItsLabelsStateNotItsMessagesWording) {
  const ImportedBenchmarks imported = import_google_benchmark_json(
      {{"benchmarks", {errored("skipped: or not", encode_outcome_label({RunState::Skipped, FailureKind::Unknown}))}}}, "pcie",
      "inline.json");
  EXPECT_TRUE(imported.failures.empty());
  ASSERT_EQ(imported.skipped.size(), 1u);
  EXPECT_EQ(imported.skipped[0].reason, "skipped: or not");
}

TEST(GbenchImport, AnErrorWithoutAnOutcomeLabelIsAFailureOfUnknownKindWithTheGenericAdvice) {
  const ImportedBenchmarks imported = import_google_benchmark_json(
      {{"benchmarks", {errored("verification failed: 3 wrong", std::nullopt)}}}, "pcie", "inline.json");
  ASSERT_EQ(imported.failures.size(), 1u);
  EXPECT_EQ(imported.failures[0].kind, FailureKind::Unknown);
  EXPECT_EQ(imported.failures[0].advice, advice_for_failure(FailureKind::Unknown)) << "advice no longer follows the wording";
}

TEST(GbenchImport, AMalformedOutcomeLabelIsRejectedNamingIt) {
  for (const char* label : {"outcome=failed", "outcome=failed;kind=bad_luck", "outcome=gone"}) {
    SCOPED_TRACE(label);
    try {
      import_google_benchmark_json({{"benchmarks", {errored("x", std::string(label))}}}, "pcie", "inline.json");
      FAIL() << "accepted";
    } catch (const InputError& error) {
      EXPECT_NE(std::string(error.what()).find("benchmarks[0].label"), std::string::npos) << error.what();
    }
  }
}

TEST(GbenchImport, ErrorsBecomeOneFailureEachWithAdviceAndSkipsKeepTheirReason) {
  const ImportedBenchmarks imported =
      import_google_benchmark_json(read_google_benchmark_file(kData + "/gbench_handwritten.json"), "memory", "x.json");
  ASSERT_EQ(imported.failures.size(), 1u);
  EXPECT_EQ(imported.failures[0].benchmark, "memory/copy/1GiB/gpu0");
  EXPECT_NE(imported.failures[0].reason.find("verification failed"), std::string::npos);
  EXPECT_EQ(imported.failures[0].kind, FailureKind::WrongResult);
  EXPECT_NE(imported.failures[0].advice.find("silent data corruption"), std::string::npos);
  ASSERT_EQ(imported.skipped.size(), 1u);
  EXPECT_EQ(imported.skipped[0].benchmark, "memory/read/1GiB/gpu1");
  EXPECT_EQ(imported.skipped[0].reason.rfind("no usable GPU", 0), 0u);
}

TEST(GbenchImport, RecordedH200MemoryFamily) {
  const ImportedBenchmarks imported =
      import_google_benchmark_json(read_google_benchmark_file(kData + "/gbench_memory_h200.json"), "memory", "gbench_memory_h200.json");
  EXPECT_TRUE(imported.failures.empty());
  ASSERT_EQ(imported.metrics.size(), 7u);
  for (const Metric& m : imported.metrics) {
    SCOPED_TRACE(m.id);
    EXPECT_EQ(m.unit, "GB/s");
    EXPECT_GE(m.samples.size(), 3u);
    ASSERT_TRUE(m.efficiency.has_value());
    EXPECT_GT(*m.efficiency, 0.5);
    EXPECT_LT(*m.efficiency, 1.0);
  }
}

TEST(GbenchImport, MalformedInputNamesTheField) {
  const auto bad_value = nlohmann::json::parse(R"({"benchmarks": [{"name": "m/x/gpu0", "run_type": "iteration",
      "value": "fast", "label": "figure=x;unit=y;better=higher"}]})");
  try {
    import_google_benchmark_json(bad_value, "m", "bad.json");
    FAIL() << "expected InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("bad.json"), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("benchmarks[0].value"), std::string::npos) << error.what();
  }
  EXPECT_THROW(import_google_benchmark_json(nlohmann::json::parse(R"({"context": {}})"), "m", "y.json"), InputError);
  const auto bad_label = nlohmann::json::parse(R"({"benchmarks": [{"name": "m/x/gpu0", "value": 1, "label": "unit=y"}]})");
  EXPECT_THROW(import_google_benchmark_json(bad_label, "m", "z.json"), InputError);
}

TEST(GbenchImport, BareNanAndInfFromGoogleBenchmarkBecomeNull) {
  const auto parsed = parse_google_benchmark_output(
      R"({"a": NaN, "b": -nan, "c": inf, "d": -Infinity, "e": "NaN stays in strings \" inf", "f": [1, NaN]})", "x.json");
  EXPECT_TRUE(parsed["a"].is_null());
  EXPECT_TRUE(parsed["b"].is_null());
  EXPECT_TRUE(parsed["c"].is_null());
  EXPECT_TRUE(parsed["d"].is_null());
  EXPECT_EQ(parsed["e"], "NaN stays in strings \" inf");
  EXPECT_TRUE(parsed["f"][1].is_null());
  EXPECT_THROW(parse_google_benchmark_output(R"({"a": NaN)", "x.json"), InputError);
}

TEST(GbenchImport, StripsGoogleBenchmarkSuffixes) {
  EXPECT_EQ(strip_benchmark_suffixes("memory/triad/1GiB/gpu0/manual_time"), "memory/triad/1GiB/gpu0");
  EXPECT_EQ(strip_benchmark_suffixes("a/b/min_time:0.100/repeats:3/manual_time"), "a/b");
  EXPECT_EQ(strip_benchmark_suffixes("a/b/threads:2/real_time"), "a/b");
  EXPECT_EQ(strip_benchmark_suffixes("a/real_time_thing"), "a/real_time_thing");
}

}  // namespace
}  // namespace gpubench
