// Bad input files: every one is an InputError naming the file (and the field where there is one), never a
// crash, a hang or another exception. Each case here once crashed, hung or escaped as a nlohmann exception.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "harness/baseline/baseline_document.hpp"
#include "harness/baseline/machine_kind.hpp"
#include "harness/results/gbench_import.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/verdict/metric_verdict.hpp"
#include "temp_folder.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const std::string kCheck = std::string(GPUBENCH_TEST_DATA) + "/check";
const std::string kTriad = "memory/triad/1GiB/gpu0/bandwidth";

class InputHardening : public TempFolderTest {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = (dir_ / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  static json results() { return read_json_file(kCheck + "/healthy_1.json"); }
  static json baseline() { return read_json_file(kCheck + "/baseline.json"); }
};

// Runs `load` and requires an InputError whose message holds every one of `words`.
template <typename Load>
void expect_input_error(Load load, std::initializer_list<std::string> words) {
  try {
    load();
    ADD_FAILURE() << "accepted";
  } catch (const InputError& error) {
    for (const std::string& word : words) EXPECT_NE(std::string(error.what()).find(word), std::string::npos) << error.what();
  } catch (const std::exception& error) {
    ADD_FAILURE() << "not an InputError: " << error.what();
  }
}

void expect_results_rejected(const json& document, std::initializer_list<std::string> words) {
  expect_input_error([&] { results_from_json(document, "bad.json"); }, words);
}

void expect_baseline_rejected(const json& document, std::initializer_list<std::string> words) {
  expect_input_error([&] { baseline_from_json(document, "bad-baseline.json"); }, words);
}

TEST_F(InputHardening, DeepNestingIsRefusedWhileParsingNotACrash) {
  std::string text = read_json_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json").dump();
  const std::string params = "\"params\":{";
  const std::size_t at = text.find(params) + params.size();
  text.insert(at, "\"x\":" + std::string(100000, '[') + std::string(100000, ']') + (text[at] == '}' ? "" : ","));
  const std::string path = write("deep.json", text);
  expect_input_error([&] { read_results_file(path); }, {path, "nested more than 64 deep"});
  std::string fine = "[";  // 64 levels are accepted
  for (int i = 1; i < kDeepestJsonNesting; ++i) fine = "[" + fine + "]";
  EXPECT_NO_THROW(parse_json_text(fine + "]", "x.json"));
}

TEST_F(InputHardening, ANumberTooLargeForADoubleNamesTheFile) {
  std::string text = results().dump();
  const std::string value = "\"value\":";
  const std::size_t at = text.find(value) + value.size();
  text.replace(at, text.find(',', at) - at, "1e999");
  const std::string path = write("overflow.json", text);
  expect_input_error([&] { read_results_file(path); }, {path, "number overflow"});
}

TEST_F(InputHardening, OnlyRegularFilesAreRead) {
  const std::string fifo = (dir_ / "fifo.json").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  expect_input_error([&] { read_json_file(fifo); }, {fifo, "a FIFO"});  // a hang fails by the test's timeout
  expect_input_error([] { read_json_file("/dev/zero"); }, {"/dev/zero", "a character device"});
  expect_input_error([&] { read_json_file(dir_.string()); }, {"a directory"});
  const std::string large = write("large.json", "");
  fs::resize_file(large, kLargestJsonFile + 1);  // sparse: no disk used
  expect_input_error([&] { read_json_file(large); }, {large, "MiB"});
}

TEST_F(InputHardening, AFolderLeavesOutEntriesThatAreNotRegularFilesAndSaysWhy) {
  fs::copy_file(kCheck + "/baseline.json", dir_ / "b.json");
  ASSERT_EQ(mkfifo((dir_ / "a-fifo.json").c_str(), 0600), 0);
  fs::create_directory(dir_ / "sub.json");
  fs::create_symlink(dir_ / "missing", dir_ / "dangling.json");
  std::vector<std::string> left_out;
  EXPECT_EQ(json_files_in(dir_.string(), &left_out), std::vector<std::string>{(dir_ / "b.json").string()});
  ASSERT_EQ(left_out.size(), 3u);
  EXPECT_NE(left_out[0].find("a-fifo.json: is a FIFO"), std::string::npos) << left_out[0];
  EXPECT_NE(left_out[1].find("dangling.json: No such file"), std::string::npos) << left_out[1];
  EXPECT_NE(left_out[2].find("sub.json: is a directory"), std::string::npos) << left_out[2];
  const BaselineChoice choice = choose_baseline(read_baseline_file(kCheck + "/baseline.json").kind, dir_.string());
  EXPECT_EQ(choice.path, (dir_ / "b.json").string());
  EXPECT_NE(choice.considered[0].find("a FIFO"), std::string::npos) << choice.considered[0];
}

TEST_F(InputHardening, FieldsOfTheWrongTypeAreNamed) {
  EXPECT_EQ(document_schema(json::object(), "x.json"), "");
  expect_input_error([] { document_schema({{"schema", 5}}, "x.json"); }, {"x.json", "'schema'", "number"});
  expect_input_error([] { document_schema({{"schema", nullptr}}, "x.json"); }, {"x.json", "'schema'", "null"});
  const json good = results();
  const std::vector<std::pair<std::string, json>> cases = {
      {"/run/finished_at", 5}, {"/run/git_revision", nullptr}, {"/run/interrupted", "no"},
      {"/run/devices/0", 1e12}, {"/families/0/exit_code", 1e300}, {"/families/0/status", 0},
      {"/metrics/0/device", 4294967296}, {"/metrics/0/telemetry", 3}, {"/metrics/0/telemetry/throttled", "yes"},
      {"/failures/0/family", json::array()}, {"/failures/0/advice", 1}, {"/skipped/0", 3}};
  for (const auto& [pointer, value] : cases) {
    json d = good;
    if (pointer.rfind("/failures/", 0) == 0) d["failures"] = {{{"benchmark", "b"}, {"reason", "r"}}};
    if (pointer.rfind("/skipped/", 0) == 0) d["skipped"] = json::array({json::object()});
    d[json::json_pointer(pointer)] = value;
    std::string field = pointer.substr(1);
    for (std::size_t slash; (slash = field.find('/')) != std::string::npos;) {
      const std::string next = field.substr(slash + 1, field.find('/', slash + 1) - slash - 1);
      const bool index = !next.empty() && std::isdigit(static_cast<unsigned char>(next[0]));
      field.replace(slash, next.size() + 1, index ? "[" + next + "]" : "." + next);
    }
    SCOPED_TRACE(pointer);
    expect_results_rejected(d, {"bad.json", "'" + field + "'"});
  }
  const json base = baseline();
  for (const char* key : {"created_at", "description", "gpubench_version"}) {
    for (const json& value : {json(nullptr), json(5)}) {
      json b = base;
      b[key] = value;
      expect_baseline_rejected(b, {"bad-baseline.json", std::string("'") + key + "'"});
    }
  }
  json b = base;
  b["runs"][1] = 7;
  expect_baseline_rejected(b, {"'runs[1]'", "expected an object"});
  b = base;
  b["runs"] = "r";
  expect_baseline_rejected(b, {"'runs'"});
  b = base;
  b["recorded_versions"] = 1;
  expect_baseline_rejected(b, {"'recorded_versions'"});
}

TEST_F(InputHardening, SchemaOfTheWrongTypeInAHistoryOrBaselineFolderIsNamed) {
  json d = results();
  d["schema"] = 5;
  write("run.json", d.dump());
  // In a folder the file is passed over and named; named on its own, it is an error.
  const BaselineChoice choice = choose_baseline({"NVIDIA H200", 1, "single"}, dir_.string());
  ASSERT_EQ(choice.skipped.size(), 1u);
  EXPECT_NE(choice.skipped[0].find("run.json"), std::string::npos) << choice.skipped[0];
  EXPECT_NE(choice.skipped[0].find("'schema'"), std::string::npos) << choice.skipped[0];
  EXPECT_TRUE(choice.path.empty());
  expect_input_error([&] { choose_baseline({"NVIDIA H200", 1, "single"}, (dir_ / "run.json").string()); },
                     {"run.json", "'schema'"});
}

TEST_F(InputHardening, DuplicateMetricIdsAreRefusedNamingBothIndices) {
  json d = results();
  json copy = d["metrics"][1];
  copy["value"] = copy["value"].get<double>() * 0.5;  // a regression hidden behind the first value
  d["metrics"].push_back(copy);
  const std::string last = std::to_string(d["metrics"].size() - 1);
  expect_results_rejected(d, {"bad.json", "'metrics[" + last + "].id'", "also metrics[1].id"});
}

TEST_F(InputHardening, SamplesAndEmptyRunsAreRefused) {
  json d = results();
  d["metrics"][0]["samples"][1] = -1;
  expect_results_rejected(d, {"'metrics[0].samples[1]'", "negative"});
  d = results();
  d["metrics"][0]["samples"] = {1e308, 1e308, 1e308};
  d["metrics"][0]["value"] = 1e308;
  d["metrics"][0].erase("peak");
  expect_results_rejected(d, {"'metrics[0].samples'", "overflows"});
  d = results();
  d["metrics"] = json::array();
  d["failures"] = json::array();
  d["skipped"] = json::array();
  expect_results_rejected(d, {"'metrics'", "measured nothing"});
  d["failures"] = {{{"benchmark", "memory"}, {"reason", "crashed"}}};
  EXPECT_NO_THROW(results_from_json(d, "failed.json"));  // a run whose every benchmark failed is a verdict
  json b = baseline();
  b["metrics"] = json::object();
  expect_baseline_rejected(b, {"'metrics'", "empty"});
}

TEST_F(InputHardening, BaselineFiguresThatMakeTheVerdictNonFiniteAreRefused) {
  json b = baseline();
  b["metrics"][kTriad]["expected"] = 1e-320;  // subnormal: 1 / expected overflows
  expect_baseline_rejected(b, {"'metrics." + kTriad + ".expected'", "too small"});
  b = baseline();
  b["metrics"][kTriad]["spread"] = 1e308;  // its noise band overflows: "noise": null in check --json
  expect_baseline_rejected(b, {"'metrics." + kTriad + ".spread'", "not a finite number"});
  // Each file valid on its own, yet the relative change overflows: named with both files.
  b = baseline();
  b["metrics"][kTriad]["expected"] = 1e-300;
  b["metrics"][kTriad]["spread"] = 0;
  json d = results();
  for (json& m : d["metrics"]) {
    if (m["id"] != kTriad) continue;
    m["value"] = 1e300;
    m["samples"] = {1e300};
    m.erase("peak");
  }
  const ResultsDocument run = results_from_json(d, "run.json");
  const Baseline base = baseline_from_json(b, "b.json");
  expect_input_error([&] { check_against_baseline(run, "run.json", base, "b.json"); }, {"run.json", kTriad, "b.json", "finite"});
}

// gpubench-micro's output, as `run` takes it in: a wrong type is an InputError (the family fails, the run goes
// on), and a figure the results reader would refuse fails its benchmark instead of making the file unreadable.
TEST_F(InputHardening, BenchmarkOutputThatTheReaderWouldRefuseFailsItsBenchmark) {
  const json output = read_google_benchmark_file(std::string(GPUBENCH_TEST_DATA) + "/gbench_memory_h200.json");
  for (const char* key : {"run_type", "run_name", "label", "error_occurred"}) {
    json bad = output;
    bad["benchmarks"][0][key] = json::array();
    expect_input_error([&] { import_google_benchmark_json(bad, "memory", "out.json"); }, {"out.json", std::string("'benchmarks[0].") + key + "'"});
  }
  json bad = output;
  bad["benchmarks"][0]["clock_event_reasons"] = -1;
  expect_input_error([&] { import_google_benchmark_json(bad, "memory", "out.json"); }, {"'benchmarks[0].clock_event_reasons'"});
  for (const double value : {-1.0, 1e308}) {
    json odd = output;
    odd["benchmarks"][0]["value"] = value;
    const ImportedBenchmarks imported = import_google_benchmark_json(odd, "memory", "out.json");
    ASSERT_EQ(imported.failures.size(), 1u) << value;
    EXPECT_NE(imported.failures[0].reason.find("implausible result"), std::string::npos) << imported.failures[0].reason;
    ResultsDocument document = results_from_json(results(), "run.json");
    document.metrics = imported.metrics;
    document.failures = imported.failures;
    EXPECT_NO_THROW(results_from_json(to_json(document), "run.json")) << value;
  }
}

}  // namespace
}  // namespace gpubench
