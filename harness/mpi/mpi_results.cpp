#include "harness/mpi/mpi_results.hpp"

#include <mpi.h>

#include "benchmarks/common/benchmark_label.hpp"
#include "benchmarks/common/run_outcome.hpp"
#include "harness/runner/run_record.hpp"

namespace gpubench {
namespace {

// "Open MPI v4.1.4" of the library's whole banner: its name and version only.
std::string mpi_library() {
  char library[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int length = 0;
  if (MPI_Get_library_version(library, &length) != MPI_SUCCESS) return "";
  const std::string text(library, static_cast<std::size_t>(length));
  return text.substr(0, text.find_first_of("\n,"));
}

nlohmann::json outcome_entry(const std::string& benchmark, RunOutcome outcome, const std::string& reason) {
  return {{"name", benchmark}, {"run_type", "iteration"}, {"error_occurred", true}, {"error_message", reason},
          {"label", encode_outcome_label(outcome)}};
}

}  // namespace

ResultsDocument start_mpi_results_document(const std::vector<std::string>& command_line, const std::string& suite,
                                           const std::vector<int>& devices, const nlohmann::json& ranks, int world_size,
                                           const NvmlLibrary* nvml, const std::string& nvml_error) {
  ResultsDocument document = start_results_document(command_line, suite, devices, nvml, nvml_error);
  document.environment["ranks"] = ranks;
  document.environment["mpi"] = {{"world_size", world_size}, {"library", mpi_library()}};
  return document;
}

nlohmann::json collective_benchmark_json(const std::string& benchmark, const MpiCollectiveOutcome& outcome,
                                        const RankClocks& clocks) {
  nlohmann::json entries = nlohmann::json::array();
  if (outcome.kind == MpiCollectiveOutcome::Kind::Skipped) {
    entries.push_back(outcome_entry(benchmark, {RunState::Skipped, FailureKind::Unknown}, outcome.reason));
  } else if (outcome.kind == MpiCollectiveOutcome::Kind::Failed) {
    entries.push_back(outcome_entry(benchmark, {RunState::Failed, outcome.failure}, outcome.reason));
  } else {
    const FigureLabel label{"busbw", "GB/s", Better::Higher, std::nullopt, collective_params(outcome.median)};
    for (double busbw : outcome.busbw_samples) {
      entries.push_back({{"name", benchmark}, {"run_type", "iteration"}, {"value", busbw}, {"label", encode_label(label)}});
    }
    if (!entries.empty() && clocks.sm_clock_mhz) entries.back()["sm_clock_mhz"] = *clocks.sm_clock_mhz;
    if (!entries.empty() && clocks.clock_event_reasons) entries.back()["clock_event_reasons"] = *clocks.clock_event_reasons;
  }
  return {{"benchmarks", entries}};
}

}  // namespace gpubench
