#include "harness/results/gbench_import.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <regex>
#include <type_traits>

#include "benchmarks/common/metric_id.hpp"
#include "benchmarks/common/run_outcome.hpp"
#include "harness/results/clock_events.hpp"
#include "harness/results/failure_advice.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

using nlohmann::json;

struct Accumulated {
  FigureLabel label;                                                  // of the first repetition
  std::vector<std::map<std::string, std::string>> repetition_params;  // each repetition's
  std::vector<double> values;
  std::vector<double> peaks;
  std::vector<double> clocks;
  std::uint64_t reasons = 0;
};

// An optional member of an entry: `fallback` when absent, an InputError naming it when of the wrong type.
template <typename T>
T member_or(const json& entry, const char* name, const T& fallback, const std::string& source, const std::string& path) {
  if (!entry.contains(name)) return fallback;
  const json& value = entry.at(name);
  const bool fits = std::is_same<T, bool>::value ? value.is_boolean() : value.is_string();
  if (!fits) throw InputError(source, path + name, std::string("expected ") + (std::is_same<T, bool>::value ? "true or false" : "a string") +
                                                       ", found " + value.type_name());
  return value.get<T>();
}

double counter(const json& entry, const char* name, const std::string& source, const std::string& path) {
  const json& value = entry.at(name);
  if (!value.is_number() || !std::isfinite(value.get<double>())) {
    throw InputError(source, path + name, "expected a finite number");
  }
  return value.get<double>();
}

// One set of params for a metric: a param every repetition gave the same value keeps it; one that differed
// (a choice made anew, a figure of each repetition) lists each repetition's value in order, "a; b; c", with
// "absent" where a repetition did not give it. The params then describe every sample, not just the first.
std::map<std::string, std::string> merge_repetition_params(const std::vector<std::map<std::string, std::string>>& repetitions) {
  std::map<std::string, std::vector<std::string>> values;
  for (const auto& params : repetitions) {
    for (const auto& [key, value] : params) values[key];
  }
  for (auto& [key, list] : values) {
    for (const auto& params : repetitions) {
      const auto found = params.find(key);
      list.push_back(found == params.end() ? "absent" : found->second);
    }
  }
  std::map<std::string, std::string> merged;
  for (const auto& [key, list] : values) {
    const bool same = std::all_of(list.begin(), list.end(), [&](const std::string& v) { return v == list.front(); });
    std::string text = list.front();
    for (std::size_t i = 1; !same && i < list.size(); ++i) text += "; " + list[i];
    merged[key] = text;
  }
  return merged;
}

}  // namespace

nlohmann::json parse_google_benchmark_output(const std::string& text, const std::string& source) {
  std::string cleaned;
  cleaned.reserve(text.size());
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (in_string) {
      cleaned += c;
      if (c == '\\' && i + 1 < text.size()) {
        cleaned += text[++i];
      } else if (c == '"') {
        in_string = false;
      }
      continue;
    }
    if (c == '"') {
      in_string = true;
      cleaned += c;
      continue;
    }
    bool replaced = false;
    for (const char* token : {"-nan", "-NaN", "NaN", "nan", "-inf", "-Infinity", "Infinity", "inf"}) {
      const std::size_t n = std::strlen(token);
      if (text.compare(i, n, token) == 0) {
        cleaned += "null";
        i += n - 1;
        replaced = true;
        break;
      }
    }
    if (!replaced) cleaned += c;
  }
  return parse_json_text(cleaned, source);
}

nlohmann::json read_google_benchmark_file(const std::string& path) {
  return parse_google_benchmark_output(read_regular_file(path), path);
}

std::string strip_benchmark_suffixes(const std::string& run_name) {
  static const std::regex suffix(
      R"((/(manual_time|real_time|process_time|min_time:[0-9.e+-]+s?|min_warmup_time:[0-9.e+-]+|iterations:[0-9]+|repeats:[0-9]+|threads:[0-9]+))+$)");
  return std::regex_replace(run_name, suffix, "");
}

ImportedBenchmarks import_google_benchmark_json(const json& doc, const std::string& family, const std::string& source) {
  if (!doc.is_object() || !doc.contains("benchmarks") || !doc.at("benchmarks").is_array()) {
    throw InputError(source, "benchmarks", "missing: not Google Benchmark JSON output");
  }
  ImportedBenchmarks out;
  std::map<std::string, Accumulated> runs;
  std::vector<std::string> order;
  std::map<std::string, bool> reported_error;
  const json& entries = doc.at("benchmarks");
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const json& entry = entries[i];
    const std::string path = "benchmarks[" + std::to_string(i) + "].";
    if (!entry.is_object() || !entry.contains("name") || !entry.at("name").is_string()) {
      throw InputError(source, path + "name", "missing");
    }
    if (member_or<std::string>(entry, "run_type", "iteration", source, path) != "iteration") continue;
    const std::string name = strip_benchmark_suffixes(member_or(entry, "run_name", entry.at("name").get<std::string>(), source, path));
    if (member_or(entry, "error_occurred", false, source, path) || member_or(entry, "skipped", false, source, path)) {
      if (reported_error[name]) continue;
      reported_error[name] = true;
      const std::string message = member_or(entry, "error_message", member_or<std::string>(entry, "skip_message", "no reason given", source, path),
                                            source, path);
      // The label says skipped or failed, and the failure's kind; a run without such a label (a gpubench-micro
      // older than outcomes) is a failure of unknown kind.
      std::optional<RunOutcome> outcome;
      try {
        outcome = decode_outcome_label(member_or<std::string>(entry, "label", "", source, path));
      } catch (const std::invalid_argument& error) {
        throw InputError(source, path + "label", error.what());
      }
      if (outcome && outcome->state == RunState::Skipped) {
        out.skipped.push_back({name, family, message});
      } else {
        const FailureKind kind = outcome ? outcome->kind : FailureKind::Unknown;
        out.failures.push_back({name, family, kind, message, advice_for_failure(kind)});
      }
      continue;
    }
    if (!entry.contains("value")) {
      if (reported_error[name]) continue;
      reported_error[name] = true;
      out.failures.push_back({name, family, FailureKind::NoValue, "the benchmark reported no value (a gpubench-micro bug)",
                              advice_for_failure(FailureKind::NoValue)});
      continue;
    }
    FigureLabel label;
    try {
      label = decode_label(member_or<std::string>(entry, "label", "", source, path));
    } catch (const std::invalid_argument& error) {
      throw InputError(source, path + "label", error.what());
    }
    auto [it, inserted] = runs.try_emplace(name);
    Accumulated& run = it->second;
    if (inserted) {
      order.push_back(name);
      run.label = label;
    }
    run.repetition_params.push_back(std::move(label.params));
    run.values.push_back(counter(entry, "value", source, path));
    if (entry.contains("peak")) run.peaks.push_back(counter(entry, "peak", source, path));
    if (entry.contains("sm_clock_mhz")) run.clocks.push_back(counter(entry, "sm_clock_mhz", source, path));
    if (entry.contains("clock_event_reasons")) {
      const double reasons = counter(entry, "clock_event_reasons", source, path);
      if (reasons < 0 || reasons >= 18446744073709551616.0) {  // converting it would be undefined
        throw InputError(source, path + "clock_event_reasons", "expected a bit mask, found " + entry.at("clock_event_reasons").dump());
      }
      run.reasons |= static_cast<std::uint64_t>(reasons);
    }
  }
  for (const std::string& name : order) {
    const Accumulated& run = runs.at(name);
    Metric m;
    m.benchmark = name;
    m.family = family;
    m.id = MetricId(name, run.label.figure).text();
    m.device = run.label.device;
    m.unit = run.label.unit;
    m.better = run.label.better;
    m.samples = run.values;
    m.statistics = summarize(m.samples);
    // The results reader refuses what no measurement gives (a negative figure, samples whose mean overflows): such
    // a benchmark fails here, and the rest of the run keeps its figures and stays readable.
    const auto negative = std::find_if(m.samples.begin(), m.samples.end(), [](double x) { return x < 0; });
    if (negative != m.samples.end() || !std::isfinite(m.statistics.mean) || !std::isfinite(m.statistics.stddev)) {
      const std::string reason = "implausible result: a repetition measured " +
                                 json(negative != m.samples.end() ? *negative : m.statistics.max).dump() + " " + m.unit;
      out.failures.push_back({name, family, FailureKind::ImplausibleResult, reason, advice_for_failure(FailureKind::ImplausibleResult)});
      continue;
    }
    m.value = m.statistics.median;
    if (!run.peaks.empty()) {
      m.peak = median(run.peaks);
      if (*m.peak > 0) m.efficiency = m.value / *m.peak;
    }
    if (!run.clocks.empty()) m.sm_clock_mhz = median(run.clocks);
    m.clock_event_reasons = run.reasons;
    m.throttled = is_throttling(run.reasons);
    m.params = merge_repetition_params(run.repetition_params);
    // Nothing measures 50 % past the theoretical peak of its device (the results reader rejects such a file): a
    // timing or counting bug is a failure of this benchmark, and the rest of the run keeps its figures.
    if (m.peak && *m.peak > 0 && m.better == Better::Higher && m.value > 1.5 * *m.peak) {
      const std::string reason = "implausible result: " + std::to_string(m.value) + " " + m.unit +
                                 " is more than 1.5 times the theoretical peak (" + std::to_string(*m.peak) +
                                 "), so the timing or the byte or FLOP count is wrong";
      out.failures.push_back({name, family, FailureKind::ImplausibleResult, reason, advice_for_failure(FailureKind::ImplausibleResult)});
      continue;
    }
    out.metrics.push_back(std::move(m));
  }
  return out;
}

}  // namespace gpubench
