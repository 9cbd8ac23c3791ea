#pragma once
// The results document (schema "gpubench.results/1", documented in docs/results-schema.md).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/benchmark_label.hpp"
#include "benchmarks/common/failure_kind.hpp"
#include "harness/results/statistics.hpp"

namespace gpubench {

inline constexpr const char* kResultsSchema = "gpubench.results/1";

struct Metric {
  std::string id;         // family/variant/params/gpuN/figure — stable across releases
  std::string benchmark;  // the gpubench-micro benchmark that produced it
  std::string family;
  std::optional<int> device;
  double value = 0;  // median of the samples
  std::string unit;
  Better better = Better::Higher;
  std::vector<double> samples;  // one per repetition
  SampleStatistics statistics;
  std::optional<double> peak;        // theoretical peak, same unit
  std::optional<double> efficiency;  // value / peak
  std::optional<double> sm_clock_mhz;  // median over repetitions, read by NVML as each ended
  std::uint64_t clock_event_reasons = 0;  // union over repetitions
  bool throttled = false;
  std::map<std::string, std::string> params;
};

struct Failure {
  std::string benchmark;  // or the family variant (memory, nccl.ring_simple) when it failed as a whole
  std::string family;
  FailureKind kind = FailureKind::Unknown;  // what the advice follows
  std::string reason;
  std::string advice;  // what to try
};

struct Skip {
  std::string benchmark;
  std::string family;
  std::string reason;
};

// A metric that looked like a regression, measured again in fresh processes (`gpubench check --confirm`)
// before its verdict stands. The document keeps the first measurement in `metrics` and these beside it.
struct Confirmation {
  std::string metric;                 // the id measured again
  std::vector<Metric> measurements;   // one per fresh process, in the order they ran
};

struct FamilyRun {
  std::string family;
  std::string status;  // ok, failed, timeout, crashed, interrupted
  double seconds = 0;
  int exit_code = 0;
  nlohmann::json telemetry = nlohmann::json::object();  // per GPU: NVML samples while the family ran
};

struct RunInfo {
  std::string id;
  std::string started_at;   // ISO 8601 UTC
  std::string finished_at;
  std::string host;
  std::string gpubench_version;
  std::string git_revision;
  std::vector<std::string> command_line;
  std::string suite;
  std::vector<int> devices;
  bool interrupted = false;
};

struct ResultsDocument {
  RunInfo run;
  nlohmann::json environment = nlohmann::json::object();
  std::vector<FamilyRun> families;
  std::vector<Metric> metrics;
  std::vector<Failure> failures;
  std::vector<Skip> skipped;
  std::vector<Confirmation> confirmations;  // empty unless `check --confirm` measured a suspect again
  nlohmann::json stress;  // null unless the run was a stress test: per-GPU telemetry series, windows, verdicts
};

nlohmann::json to_json(const ResultsDocument& document);
// Throws InputError naming `source` (a file name) and the field when the document is invalid.
ResultsDocument results_from_json(const nlohmann::json& json, const std::string& source);

}  // namespace gpubench
