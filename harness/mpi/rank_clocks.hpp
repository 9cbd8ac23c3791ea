#pragma once
// The clocks of a gpubench-mpi figure: each rank reads its own GPU's SM clock and clock-event (throttle)
// reasons through NVML as a benchmark ends, and rank 0 puts them together as gpubench-micro does for a figure of
// several GPUs (nccl.cu: report_clocks_of_all): the lowest SM clock, and every reason any GPU had, so that one
// throttled GPU marks the measurement.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gpubench {

class NvmlLibrary;

struct RankClocks {
  std::optional<double> sm_clock_mhz;                // none when no rank could read one
  std::optional<std::uint64_t> clock_event_reasons;  // none when no rank could read them
};

// This rank's reading, as JSON text for MpiWorld::gather_text; {} without NVML or a handle for the GPU.
std::string read_rank_clocks(const NvmlLibrary* nvml, int cuda_device);

// Every rank's reading (read_rank_clocks's text, in any order) put together. Throws nlohmann::json errors on
// text that is not JSON.
RankClocks combine_rank_clocks(const std::vector<std::string>& per_rank);

}  // namespace gpubench
