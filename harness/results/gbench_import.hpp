#pragma once
// Turns the JSON that gpubench-micro (Google Benchmark) writes into metrics, failures and skips.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "harness/results/results_document.hpp"

namespace gpubench {

struct ImportedBenchmarks {
  std::vector<Metric> metrics;
  std::vector<Failure> failures;
  std::vector<Skip> skipped;
};

// `source` names the file for error messages. Per-repetition runs become samples; Google Benchmark's own
// aggregates are ignored (statistics are recomputed from the samples). Throws InputError on malformed input.
ImportedBenchmarks import_google_benchmark_json(const nlohmann::json& json, const std::string& family,
                                                const std::string& source);

// Parses Google Benchmark's JSON output. It writes bare NaN and inf for undefined statistics (the
// coefficient of variation of an all-zero counter), which is not JSON; those become null here.
nlohmann::json parse_google_benchmark_output(const std::string& text, const std::string& source);
nlohmann::json read_google_benchmark_file(const std::string& path);

// "memory/triad/1GiB/gpu0/manual_time" -> "memory/triad/1GiB/gpu0": drops the suffixes Google Benchmark adds.
std::string strip_benchmark_suffixes(const std::string& run_name);

}  // namespace gpubench
