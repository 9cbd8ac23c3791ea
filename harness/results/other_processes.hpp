#pragma once
// The other processes a results document saw on each GPU while a family ran (families[].telemetry.gpuN.processes,
// docs/results-schema.md): how they are tallied from NVML's listings, written and read back. A document of an
// earlier release, or of a run without NVML, has none recorded, which is not the same as none seen.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/environment/gpu_processes.hpp"

namespace gpubench {

struct OtherProcess {
  unsigned pid = 0;
  std::string name;  // empty when NVML could not name it
  std::string kind;  // "compute", "graphics" or "compute+graphics"
  std::optional<std::uint64_t> used_memory_bytes;  // the most seen
  double first_seen_s = 0;  // seconds since the family started
  double last_seen_s = 0;
  int samples = 0;  // readings that listed it
};

// Adds what one reading at `t_s` listed to `seen`, each process once by pid.
void tally_processes(std::vector<OtherProcess>& seen, const std::vector<GpuProcess>& listed, double t_s);

nlohmann::json other_processes_json(const std::vector<OtherProcess>& processes);

// The processes recorded in one GPU's telemetry of a family; absent when none were recorded. Throws InputError naming
// `source` and the field (`path` leads to the GPU's telemetry) when they are not as the schema says.
std::optional<std::vector<OtherProcess>> other_processes_in(const nlohmann::json& gpu_telemetry, const std::string& source,
                                                            const std::string& path);

// "pid 4242, python3, 20.0 GiB": what is known of it.
std::string describe(const OtherProcess& process);

}  // namespace gpubench
