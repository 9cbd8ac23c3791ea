// The results document: a full round trip through a file, and rejection of bad files with the field named.
#include "harness/results/results_document.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <cstdio>
#include <fstream>

#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

ResultsDocument sample_document() {
  ResultsDocument d;
  d.run = {"run-1", "2026-11-29T17:00:00Z", "2026-11-29T17:03:00Z", "node7", "0.1.0", "abc123",
           {"gpubench", "run", "--suite", "quick"}, "quick", {0, 1}, false};
  d.environment = {{"versions", {{"driver", "580.159.04"}}}, {"gpus", nlohmann::json::array()}};
  Metric m;
  m.id = "memory/triad/1GiB/gpu1/bandwidth";
  m.benchmark = "memory/triad/1GiB/gpu1";
  m.family = "memory";
  m.device = 1;
  m.unit = "GB/s";
  m.better = Better::Higher;
  m.samples = {4400, 4390, 4410};
  m.statistics = summarize(m.samples);
  m.value = m.statistics.median;
  m.peak = 4915.2;
  m.efficiency = m.value / *m.peak;
  m.sm_clock_mhz = 1980;
  m.clock_event_reasons = 4;
  m.throttled = true;
  m.params = {{"launch", "grid264xblock1024"}};
  d.metrics.push_back(m);
  d.failures.push_back({"memory/copy/1GiB/gpu0", "memory", FailureKind::WrongResult, "verification failed: 3 wrong", "re-run"});
  d.skipped.push_back({"memory/read/1GiB/gpu0", "memory", "not supported"});
  d.families.push_back({"memory", "ok", 12.5, 0, nlohmann::json::object()});
  return d;
}

std::string temp_path(const char* name) { return "/tmp/gpubench-test-" + std::to_string(getpid()) + "-" + name; }

TEST(ResultsDocument, RoundTripsThroughAFile) {
  const std::string path = temp_path("roundtrip.json");
  write_json_atomically(to_json(sample_document()), path);
  const ResultsDocument back = read_results_file(path);
  std::remove(path.c_str());
  EXPECT_EQ(back.run.id, "run-1");
  EXPECT_EQ(back.run.devices, (std::vector<int>{0, 1}));
  EXPECT_EQ(back.run.command_line.size(), 4u);
  ASSERT_EQ(back.metrics.size(), 1u);
  const Metric& m = back.metrics[0];
  EXPECT_EQ(m.id, "memory/triad/1GiB/gpu1/bandwidth");
  EXPECT_EQ(*m.device, 1);
  EXPECT_EQ(m.samples, (std::vector<double>{4400, 4390, 4410}));
  EXPECT_DOUBLE_EQ(m.value, 4400);
  EXPECT_DOUBLE_EQ(*m.peak, 4915.2);
  EXPECT_TRUE(m.throttled);
  EXPECT_EQ(m.params.at("launch"), "grid264xblock1024");
  ASSERT_EQ(back.failures.size(), 1u);
  EXPECT_EQ(back.failures[0].advice, "re-run");
  EXPECT_EQ(back.failures[0].kind, FailureKind::WrongResult);
  ASSERT_EQ(back.skipped.size(), 1u);
  ASSERT_EQ(back.families.size(), 1u);
  EXPECT_EQ(back.environment["versions"]["driver"], "580.159.04");
  EXPECT_EQ(to_json(back)["schema"], kResultsSchema);
}

TEST(ResultsDocument, ReadsADocumentRecordedOnAnH200) {
  const ResultsDocument d = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  EXPECT_EQ(d.run.suite, "quick");
  EXPECT_EQ(d.environment["gpus"][0]["name"], "NVIDIA H200");
  EXPECT_EQ(d.metrics.size(), 7u);
  EXPECT_TRUE(d.failures.empty());
  for (const Metric& m : d.metrics) {
    EXPECT_EQ(m.statistics.count, m.samples.size());
    EXPECT_DOUBLE_EQ(m.value, m.statistics.median) << m.id;
  }
}

TEST(ResultsDocument, AtomicWriteLeavesNoTemporaryAndReplacesTheOldFile) {
  const std::string path = temp_path("atomic.json");
  write_json_atomically({{"a", 1}}, path);
  write_json_atomically({{"a", 2}}, path);
  EXPECT_EQ(read_json_file(path)["a"], 2);
  std::ifstream leftover(path + ".tmp." + std::to_string(getpid()));
  EXPECT_FALSE(leftover.good());
  std::remove(path.c_str());
}

// Each bad document must be rejected with the source and the offending field in the message.
void expect_rejected(const nlohmann::json& doc, const std::string& field) {
  try {
    results_from_json(doc, "bad.json");
    FAIL() << "accepted a document with a bad " << field;
  } catch (const InputError& error) {
    const std::string text = error.what();
    EXPECT_NE(text.find("bad.json"), std::string::npos) << text;
    EXPECT_NE(text.find(field), std::string::npos) << text;
  }
}

TEST(ResultsDocument, RejectsBadDocumentsNamingTheField) {
  const nlohmann::json good = to_json(sample_document());
  nlohmann::json d = good;
  d["schema"] = "gpubench.results/99";
  expect_rejected(d, "schema");
  d = good;
  d.erase("metrics");
  expect_rejected(d, "metrics");
  d = good;
  d["metrics"][0].erase("unit");
  expect_rejected(d, "metrics[0].unit");
  d = good;
  d["metrics"][0]["value"] = nullptr;  // how NaN comes out of a JSON writer
  expect_rejected(d, "metrics[0].value");
  d = good;
  d["metrics"][0]["value"] = -4400;
  expect_rejected(d, "metrics[0].value");
  d = good;
  d["metrics"][0]["samples"] = nlohmann::json::array();
  expect_rejected(d, "metrics[0].samples");
  d = good;
  d["metrics"][0]["better"] = "sideways";
  expect_rejected(d, "metrics[0].better");
  d = good;
  d["run"].erase("host");
  expect_rejected(d, "run.host");
  d = good;
  d["metrics"][0]["value"] = 1e6;  // absurd: 200 times the peak
  d["metrics"][0]["samples"] = {1e6};
  expect_rejected(d, "metrics[0].value");
  d = good;
  d["environment"]["gpus"] = {"NVIDIA H200"};
  expect_rejected(d, "environment.gpus[0]");
  d = good;
  d["environment"]["gpus"] = {{{"name", "NVIDIA H200"}, {"clocks", 1980}}};
  expect_rejected(d, "environment.gpus[0].clocks");
  d = good;
  d["environment"]["topology"] = {{"links", {"NV18"}}};
  expect_rejected(d, "environment.topology.links[0]");
  d = good;
  d["families"] = {3};
  expect_rejected(d, "families[0]");
  d = good;
  d["run"]["suite"] = 5;  // a field only read with a default: still named, with its file
  expect_rejected(d, "run.suite");
  d = good;
  d["failures"][0]["kind"] = "bad_luck";
  expect_rejected(d, "failures[0].kind");
  d = good;
  d["failures"][0]["kind"] = 3;
  expect_rejected(d, "failures[0].kind");
}

TEST(ResultsDocument, FailuresKeepTheirKindByName) {
  const nlohmann::json j = to_json(sample_document());
  EXPECT_EQ(j["failures"][0]["kind"], "wrong_result");
}

TEST(ResultsDocument, AFailureWithoutAKindFromAnOlderDocumentReadsAsUnknownWithItsAdvice) {
  nlohmann::json j = to_json(sample_document());
  j["failures"][0].erase("kind");
  const ResultsDocument back = results_from_json(j, "old.json");
  ASSERT_EQ(back.failures.size(), 1u);
  EXPECT_EQ(back.failures[0].kind, FailureKind::Unknown);
  EXPECT_EQ(back.failures[0].advice, "re-run");
}

TEST(ResultsDocument, TruncatedFileIsRejectedWithItsName) {
  const std::string path = temp_path("truncated.json");
  const std::string text = to_json(sample_document()).dump();
  std::ofstream(path) << text.substr(0, text.size() / 2);
  try {
    read_results_file(path);
    FAIL() << "accepted a truncated file";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos);
    EXPECT_NE(std::string(error.what()).find("truncated"), std::string::npos);
  }
  std::remove(path.c_str());
  EXPECT_THROW(read_results_file(temp_path("does-not-exist.json")), InputError);
}

}  // namespace
}  // namespace gpubench
