#include "harness/runner/run_record.hpp"

#include <unistd.h>

#include <ctime>
#include <filesystem>

#include "gpubench/version.hpp"
#include "harness/environment/fingerprint.hpp"
#include "harness/results/output_error.hpp"

namespace gpubench {
std::string host_name() {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  return name[0] ? name : "unknown-host";
}

std::string utc_now(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

ResultsDocument start_results_document(const std::vector<std::string>& command_line, const std::string& suite,
                                       const std::vector<int>& devices, const NvmlLibrary* nvml, const std::string& nvml_error) {
  ResultsDocument document;
  const std::string host = host_name();
  document.run.id = utc_now("%Y%m%dT%H%M%SZ") + "-" + host + "-" + std::to_string(getpid());
  document.run.started_at = utc_now("%Y-%m-%dT%H:%M:%SZ");
  document.run.host = host;
  document.run.gpubench_version = kVersion;
  document.run.git_revision = kGitRevision;
  document.run.command_line = command_line;
  document.run.suite = suite;
  document.run.devices = devices;
  document.environment = collect_environment(nvml, nvml_error, devices);
  return document;
}

void finish_results_document(ResultsDocument& document) { document.run.finished_at = utc_now("%Y-%m-%dT%H:%M:%SZ"); }

std::string default_output_stem(const ResultsDocument& document) {
  std::string stamp = document.run.id.substr(0, document.run.id.find('-'));
  return "gpubench-" + document.run.host + "-" + stamp;
}

std::string results_path_in(const std::string& directory, const ResultsDocument& document, const std::string& suffix) {
  const std::filesystem::path folder = std::filesystem::path(directory) / document.run.host;
  std::error_code error;
  std::filesystem::create_directories(folder, error);
  if (error) throw OutputError(folder.string(), "cannot make the folder: " + error.message());
  return (folder / (document.run.id + suffix + ".json")).string();
}

}  // namespace gpubench
