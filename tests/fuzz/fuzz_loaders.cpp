// Structure-aware fuzzing of the document loaders. Each case takes a real recorded document (a results file,
// a baseline, gpubench-micro's Google Benchmark output, a node profile), mutates one field (deletes it, sets it null, swaps its type, writes NaN, Infinity, 1e999, huge,
// tiny or negative numbers, deep nesting, long or odd strings, a duplicate array element) or truncates the
// text, and feeds it to the loaders in-process. The loader must return a valid document or throw InputError:
// any other exception, a crash or a hang is a finding. A document that loads must also survive what the CLI
// does next: written back and read again, judged by `check` with every output format, and taken into a
// history; benchmark output that imports must make a results document that reads back.
//
// usage: gpubench_fuzz_loaders [CASES [SEED]]   (CASES also from $GPUBENCH_FUZZ_CASES; default 300)
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <iostream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "harness/baseline/baseline_document.hpp"
#include "harness/doctor/node_profile.hpp"
#include "harness/report/check_console.hpp"
#include "harness/report/console_report.hpp"
#include "harness/report/json_report.hpp"
#include "harness/report/junit_report.hpp"
#include "harness/report/markdown_report.hpp"
#include "harness/report/prometheus_report.hpp"
#include "harness/results/gbench_import.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/verdict/history.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

// Stands in for raw JSON text (1e999, NaN, deep nesting) that no json value can hold; replaced after dump().
const std::string kSentinel = "@@gpubench-fuzz@@";

void collect_pointers(const json& value, const json::json_pointer& at, std::vector<json::json_pointer>& out) {
  if (!at.empty()) out.push_back(at);
  if (value.is_object()) {
    for (const auto& [key, member] : value.items()) collect_pointers(member, at / key, out);
  } else if (value.is_array()) {
    for (std::size_t i = 0; i < value.size(); ++i) collect_pointers(value[i], at / i, out);
  }
}

struct Mutation {
  std::string text;         // the document to load
  std::string description;  // for the report
};

template <typename T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& options) {
  return options[std::uniform_int_distribution<std::size_t>(0, options.size() - 1)(rng)];
}

std::string replace_sentinel(const json& document, const std::string& raw) {
  std::string text = document.dump();
  const std::string quoted = "\"" + kSentinel + "\"";
  const std::size_t at = text.find(quoted);
  return at == std::string::npos ? text : text.replace(at, quoted.size(), raw);
}

std::string nested(std::size_t depth) { return std::string(depth, '[') + std::string(depth, ']'); }

Mutation mutate(const json& original, std::size_t case_index, std::mt19937_64& rng) {
  const std::string text = original.dump();
  constexpr int kKinds = 9;
  const int kind = static_cast<int>(case_index % kKinds);
  if (kind == kKinds - 1) {  // truncation anywhere, including inside numbers, strings and escapes
    const std::size_t length = std::uniform_int_distribution<std::size_t>(0, text.size() - 1)(rng);
    return {text.substr(0, length), "truncated to " + std::to_string(length) + " of " + std::to_string(text.size()) + " bytes"};
  }
  std::vector<json::json_pointer> pointers;
  collect_pointers(original, json::json_pointer(), pointers);
  const json::json_pointer at = pick(rng, pointers);
  json document = original;
  const std::string where = at.to_string();
  switch (kind) {
    case 0: {
      json& parent = document[at.parent_pointer()];
      if (parent.is_object()) {
        parent.erase(at.back());
      } else {
        parent.erase(static_cast<std::size_t>(std::stoul(at.back())));
      }
      return {document.dump(), "deleted " + where};
    }
    case 1:
      document[at] = nullptr;
      return {document.dump(), where + " = null"};
    case 2: {
      static const std::vector<json> values = {true, false, 0, 1, -1, 7.5, "", "text", json::array(), json::object(),
                                               json::array({1, "a"}), json{{"a", 1}}, 4294967296LL, -2147483649LL};
      document[at] = pick(rng, values);
      return {document.dump(), where + " = " + document[at].dump()};
    }
    case 3: {
      static const std::vector<std::string> numbers = {"1e999", "-1e999", "NaN", "Infinity", "-Infinity", "1e308",
                                                       "-1e308", "1.7976931348623157e308", "4.9e-324", "1e-320", "-0.0",
                                                       "0", "-1", "18446744073709551616", "-9223372036854775809",
                                                       "9223372036854775807", "1e-300", "2.5e-308"};
      const std::string& raw = pick(rng, numbers);
      document[at] = kSentinel;
      return {replace_sentinel(document, raw), where + " = " + raw};
    }
    case 4: {
      static const std::vector<std::size_t> depths = {63, 64, 65, 1000, 100000};
      const std::size_t depth = pick(rng, depths);
      document[at] = kSentinel;
      return {replace_sentinel(document, nested(depth)), where + " = " + std::to_string(depth) + " nested arrays"};
    }
    case 5: {
      static const std::vector<std::string> strings = {std::string(1 << 20, 'x'), std::string("a\0b", 3), "\xff\xfe",
                                                       "\xe2\x82", "\\", "\"", "../../etc/passwd", "%s%n", "\n"};
      const std::string& value = pick(rng, strings);
      document[at] = kSentinel;
      // Raw bytes, not json-escaped: invalid UTF-8 and bad escapes reach the parser as they would in a file.
      return {replace_sentinel(document, "\"" + value + "\""), where + " = a string of " + std::to_string(value.size()) + " odd bytes"};
    }
    case 6: {
      static const std::vector<std::string> strings = {"", "memory/triad/1GiB/gpu0/bandwidth", "gpubench.results/1",
                                                       "gpubench.baseline/1", "higher", "lower", "NVIDIA H200", "single"};
      const std::string& value = pick(rng, strings);
      document[at] = value;
      return {document.dump(), where + " = \"" + value + "\""};
    }
    default: {  // a duplicate of an array element next to it (duplicate metric ids, runs, samples)
      json::json_pointer element = at;
      while (!element.empty() && !document[element.parent_pointer()].is_array()) element = element.parent_pointer();
      if (element.empty()) return {document.dump(), "unchanged (no array above " + where + ")"};
      json& array = document[element.parent_pointer()];
      array.push_back(document[element]);
      return {document.dump(), "duplicated " + element.to_string()};
    }
  }
}

// gpubench must read back whatever it writes: a refusal there is a finding, not a correct rejection.
template <typename Read>
auto read_back(Read read) {
  try {
    return read();
  } catch (const InputError& error) {
    throw std::logic_error(std::string("gpubench refuses what it wrote: ") + error.what());
  }
}

// What the CLI does with a document once it has loaded: write it, read it back, judge it against the baseline
// and print every format, and take it into a history beside the recorded run. (compare and check --fleet are
// left out: std::regex recurses per character of a metric id, which is being fixed separately.)
void use_results(const ResultsDocument& results, const Baseline& baseline, const ResultsDocument& recorded) {
  const ResultsDocument again =
      read_back([&] { return results_from_json(parse_json_text(to_json(results).dump(), "written.json"), "written.json"); });
  const CheckReport report = check_against_baseline(again, "run.json", baseline, "baseline.json");
  std::ostringstream out;
  out << check_json(report).dump();
  write_junit(verdict_list(report, again.run), out);
  write_check_markdown(report, out);
  write_check_prometheus(report, again, out);
  print_check_console(report, out, false);
  analyse_history({{"recorded.json", recorded}, {"run.json", again}, {"recorded2.json", recorded}});
}

void use_baseline(const Baseline& baseline, const ResultsDocument& results) {
  const Baseline again =
      read_back([&] { return baseline_from_json(parse_json_text(to_json(baseline).dump(), "written.json"), "written.json"); });
  use_results(results, again, results);
}

// gpubench-micro's output as `run` takes it in; the results document made of it must read back.
void use_benchmark_output(const std::string& text, const Baseline& baseline, const ResultsDocument& recorded) {
  ImportedBenchmarks imported = import_google_benchmark_json(parse_google_benchmark_output(text, "fuzz.json"), "memory", "fuzz.json");
  ResultsDocument document = recorded;
  document.metrics = std::move(imported.metrics);
  document.failures = std::move(imported.failures);
  document.skipped = std::move(imported.skipped);
  use_results(read_back([&] { return results_from_json(parse_json_text(to_json(document).dump(), "run.json"), "run.json"); }),
              baseline, recorded);
}

}  // namespace
}  // namespace gpubench

int main(int argc, char** argv) {
  using namespace gpubench;
  const char* env = std::getenv("GPUBENCH_FUZZ_CASES");
  const std::size_t cases = argc > 1 ? std::stoul(argv[1]) : env != nullptr ? std::stoul(env) : 300;
  const std::uint64_t seed = argc > 2 ? std::stoull(argv[2]) : 20261201;
  const std::string results_path = std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json";
  const std::string baseline_path = std::string(GPUBENCH_BASELINES) + "/nvidia-h200-x1.json";
  const std::string benchmark_path = std::string(GPUBENCH_TEST_DATA) + "/gbench_memory_h200.json";
  const std::string profile_path = std::string(GPUBENCH_TEST_DATA) + "/doctor/profile_h200_x8.json";
  const json results_json = read_json_file(results_path);
  const json baseline_json = read_json_file(baseline_path);
  const json benchmark_json = read_google_benchmark_file(benchmark_path);
  const json profile_json = read_json_file(profile_path);
  const ResultsDocument results = read_results_file(results_path);
  const Baseline baseline = read_baseline_file(baseline_path);

  std::size_t accepted = 0, refused = 0, findings = 0;
  for (std::size_t i = 0; i < cases; ++i) {
    std::mt19937_64 rng(seed * 1000003 + i);
    static const char* const kTargets[] = {"results", "baseline", "benchmark output", "node profile"};
    const std::size_t target = (i / 9) % 4;  // every mutation kind on every document
    const json* const originals[] = {&results_json, &baseline_json, &benchmark_json, &profile_json};
    const Mutation m = mutate(*originals[target], i, rng);
    try {
      if (target == 0) {
        use_results(results_from_json(parse_json_text(m.text, "fuzz.json"), "fuzz.json"), baseline, results);
      } else if (target == 1) {
        use_baseline(baseline_from_json(parse_json_text(m.text, "fuzz.json"), "fuzz.json"), results);
      } else if (target == 2) {
        use_benchmark_output(m.text, baseline, results);
      } else {
        parse_node_profile(parse_json_text(m.text, "fuzz.json"), "fuzz.json");
      }
      ++accepted;
    } catch (const InputError&) {
      ++refused;
    } catch (const std::exception& error) {
      ++findings;
      std::cout << "FINDING case " << i << " (seed " << seed << ", " << kTargets[target] << "): "
                << m.description << ": " << error.what() << "\n";
    }
  }
  std::cout << cases << " cases (seed " << seed << "): " << accepted << " loaded, " << refused << " refused with InputError, "
            << findings << " findings\n";
  return findings == 0 ? 0 : 1;
}
