#pragma once
// The results of NVIDIA DCGM's diagnostic, `dcgmi diag -r LEVEL -j`, per test and GPU. Its JSON has had two
// layouts, both read here (from DCGM's own source, github.com/NVIDIA/DCGM, dcgmi/Diag.cpp and
// nvvs/include/NvvsJsonStrings.h):
//   DCGM 2 and 3: {"DCGM GPU Diagnostic": {"test_categories": [{"category", "tests": [{"name", "results": [
//                 {"gpu_id": "0", "status": "Fail", "warnings": [{"warning", "error_id", ...}], "info": "..."}]}]}]}}
//   DCGM 4:       {"DCGM Diagnostic": {"test_categories": [... "results": [{"entity_group": "GPU", "entity_id": 0,
//                 "status", "warnings", "info": ["..."]}], "test_summary": {"status"}}]}]},
//                 "entity_groups": [{"entity_group": "GPU", "entities": [{"entity_id": 0, "serial_num"}]}]}
// DCGM numbers GPUs as NVML does, which CUDA's numbering need not follow; dcgm_to_cuda_indexes maps them.
#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "harness/doctor/node_facts.hpp"
#include "harness/results/grade.hpp"

namespace gpubench {

struct DcgmResult {
  std::string category;  // "Deployment", "Hardware", "Integration", "Stress"
  std::string test;      // "memory", "pcie", "Persistence Mode", ...
  std::vector<int> gpus;  // DCGM's GPU ids; empty when the result is the node's (the software checks)
  std::string status;     // DCGM's word: Pass, Fail, Warn, Skip, Not Run
  std::vector<std::string> messages;  // its warnings ("... (DCGM error 28)"), then its info
};

struct DcgmDiagReport {
  std::string runtime_error;  // set when DCGM could not run the diagnostic
  std::vector<DcgmResult> results;
  std::map<int, std::string> serials;  // DCGM GPU id -> board serial number, where DCGM lists them (DCGM 4)
};

// Throws std::invalid_argument naming what is missing when `document` has neither layout.
DcgmDiagReport parse_dcgm_diag(const nlohmann::json& document);

// Fail and Warn count as such; Pass, Skip and Not Run pass (a skipped test judged nothing).
Grade grade_of_dcgm_status(const std::string& status);

// DCGM GPU id -> CUDA index of the GPUs tested: by serial number where DCGM lists it, else by NVML's index.
std::map<int, int> dcgm_to_cuda_indexes(const DcgmDiagReport& report, const std::vector<GpuFacts>& gpus);

}  // namespace gpubench
