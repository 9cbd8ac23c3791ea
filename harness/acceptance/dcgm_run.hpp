#pragma once
// Runs NVIDIA DCGM's diagnostic, `dcgmi diag -r LEVEL -j`, for `gpubench acceptance --dcgm LEVEL`, where dcgmi is
// installed (it also needs DCGM's host engine, nv-hostengine, running). Its output is kept in the log folder.
#include <atomic>
#include <string>
#include <vector>

#include "harness/acceptance/dcgm_diag.hpp"

namespace gpubench {

struct DcgmRun {
  std::string skipped_because;  // set when dcgmi is not installed: the stage is skipped
  std::string no_result;        // set when dcgmi ran but gave no results: why (its own words where it gave any)
  DcgmDiagReport report;
};

// `gpus` are DCGM's GPU ids to test (-i); empty: all. Levels 1 to 4 take from seconds to hours; the time limit
// grows with them (kDcgmTimeLimits).
DcgmRun run_dcgm_diag(int level, const std::vector<unsigned>& gpus, const std::string& log_dir, const std::atomic<bool>& stop);

}  // namespace gpubench
