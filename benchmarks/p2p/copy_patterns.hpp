#pragma once
// nvbandwidth's concurrent patterns between GPUs (its all_to_one_write and one_to_all_write test cases): for one
// GPU, the target, a copy between it and every other selected GPU, all at once. All to one: every peer sends into
// the target (what flows into it); one to all: the target sends into every peer (what flows out of it). As in
// nvbandwidth's write cases, the sending GPU drives each copy: its copy engine (cudaMemcpyPeerAsync on a stream of
// its own per copy) or its SMs (a copy kernel storing into the peer's memory). Pure arithmetic, unit-tested.
#include <cstddef>
#include <string>
#include <vector>

namespace gpubench {

enum class CopyPattern { AllToOne, OneToAll };
enum class CopyDriver { CopyEngine, Sm };

inline const char* pattern_name(CopyPattern pattern) {
  return pattern == CopyPattern::AllToOne ? "all_to_one" : "one_to_all";
}

// "ce_all_to_one", "sm_one_to_all": the variant segment of the metric id.
inline std::string pattern_variant(CopyDriver driver, CopyPattern pattern) {
  return std::string(driver == CopyDriver::CopyEngine ? "ce_" : "sm_") + pattern_name(pattern);
}

// nvbandwidth's default buffer: one copy of 512 MiB per peer, in both suites, so the figures compare with
// nvbandwidth's as it runs by default (and a round lasts milliseconds, well past the event timer's resolution).
inline constexpr std::size_t kPatternBytes = std::size_t{512} << 20;

struct PeerCopy {
  int from = 0;
  int to = 0;
  bool operator==(const PeerCopy& other) const { return from == other.from && to == other.to; }
};

// The pattern's copies around `target`, one per other GPU of `gpus`, in the order of `gpus`.
inline std::vector<PeerCopy> pattern_copies(CopyPattern pattern, int target, const std::vector<int>& gpus) {
  std::vector<PeerCopy> copies;
  for (int peer : gpus) {
    if (peer == target) continue;
    copies.push_back(pattern == CopyPattern::AllToOne ? PeerCopy{peer, target} : PeerCopy{target, peer});
  }
  return copies;
}

// The bytes a round of the pattern moves, as nvbandwidth's total bandwidth counts them: every copy's bytes once
// (a copy's bytes cross the fabric once, out of its sender and into its receiver). Over the time from the
// round's common start to its last copy's end, this is nvbandwidth's TOTAL_BW: total bytes over total time.
inline double pattern_round_bytes(std::size_t copies, std::size_t bytes_per_copy) {
  return static_cast<double>(copies) * static_cast<double>(bytes_per_copy);
}

}  // namespace gpubench
