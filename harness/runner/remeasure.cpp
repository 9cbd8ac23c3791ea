#include "harness/runner/remeasure.hpp"

#include <map>
#include <regex>

#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/gemm/gemm_shape_list.hpp"

namespace gpubench {
namespace {

// Whether `gpubench run --allow-nvls` made the document (run_benchmarks records what the nccl family ran with).
bool measured_with_nvls(const ResultsDocument& results) {
  const auto variables = results.environment.find("variables");
  if (variables == results.environment.end()) return false;
  const auto nvls = variables->find("NCCL_NVLS_ENABLE");
  return nvls != variables->end() && *nvls == "1";
}

}  // namespace

void remeasure(ResultsDocument& results, const std::vector<std::string>& metric_ids, const RemeasureOptions& options,
               const NvmlLibrary* nvml, const std::atomic<bool>& stop, std::vector<std::string>& notes) {
  std::map<std::string, Confirmation> confirmations;
  std::string filter;
  std::vector<std::string> suspects;  // their benchmarks
  const bool ran_with_nvls = measured_with_nvls(results);
  for (const std::string& id : metric_ids) {
    for (const Metric& m : results.metrics) {
      if (m.id != id) continue;
      if (ran_with_nvls && m.family == "nccl") {
        notes.push_back(id + " was measured with NVLink multicast (gpubench run --allow-nvls), which a confirmation "
                             "never turns on: not measured again");
        continue;
      }
      confirmations[id].metric = id;
      suspects.push_back(m.benchmark);
      // Benchmark names are searched as a regex: escape them, and anchor, so only this one runs.
      filter += (filter.empty() ? "^(" : "|") + std::regex_replace(m.benchmark, std::regex(R"([.^$|()\[\]{}*+?\\])"), R"(\$&)");
    }
  }
  if (confirmations.empty()) return;
  filter += ")$";

  RunOptions run;
  run.suite = results.run.suite.empty() ? "quick" : results.run.suite;
  run.filter = filter;
  run.devices = results.run.devices;
  run.micro_path = options.micro_path;
  run.gemm_shapes = gemm_shapes_named_in(suspects);  // a user's own shape exists only when asked for again
  std::vector<TelemetrySampler::Target> targets;
  for (int index : run.devices) targets.push_back({index, nvml ? nvml->device_for_cuda_index(index) : nullptr});
  for (int pass = 1; pass <= options.times && !stop; ++pass) {
    run.log_dir = options.log_dir + "/pass" + std::to_string(pass);
    ResultsDocument again;
    run_benchmarks(run, targets, nvml, {}, stop, again);
    for (auto& [id, confirmation] : confirmations) {
      bool measured = false;
      for (const Metric& m : again.metrics) {
        if (m.id == id) {
          confirmation.measurements.push_back(m);
          measured = true;
        }
      }
      if (!measured) notes.push_back("pass " + std::to_string(pass) + " did not measure " + id + " (log: " + run.log_dir + ")");
    }
    for (const Failure& f : again.failures) notes.push_back("pass " + std::to_string(pass) + ": " + f.benchmark + ": " + f.reason);
  }
  for (auto& [id, confirmation] : confirmations) {
    if (!confirmation.measurements.empty()) results.confirmations.push_back(std::move(confirmation));
  }
}

}  // namespace gpubench
