#pragma once
// A metric id: the benchmark's name and the figure, joined by '/' (memory/triad/1GiB/gpu0/bandwidth). The first
// segment is the family, everything before the last '/' the benchmark, the last segment the figure. gpubench-micro
// names the benchmarks, the harness adds the figure and reads ids back from results files and baselines.
//
// Ids are read by hand, never by std::regex: libstdc++'s regex recurses once per character, so a long id from a
// results file would overflow the stack. A GPU index has at most kMaxGpuDigits digits; a longer run of digits is
// no GPU index, not an error.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace gpubench {

inline constexpr std::size_t kMaxGpuDigits = 6;

class MetricId {
 public:
  explicit MetricId(std::string id) : id_(std::move(id)) {}
  MetricId(std::string_view benchmark, std::string_view figure);

  const std::string& text() const { return id_; }
  std::string family() const;     // "memory"; the whole id when it has no '/'
  std::string benchmark() const;  // "memory/triad/1GiB/gpu0"; the whole id when it has no '/'

  // The first segment after the family that names one GPU, and the id with that segment as "gpu*"
  // (memory/triad/1GiB/gpu*/bandwidth): the same metric on every GPU of a node or fleet.
  std::optional<int> gpu() const;
  std::string with_any_gpu() const;

  // The pair of the second-to-last segment (p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth -> {0, 1}), and the id with
  // that segment as "*" (p2p/ce_unidir/1GiB/*/bandwidth).
  std::optional<std::pair<int, int>> gpu_pair() const;
  std::string with_any_pair() const;

 private:
  // Where the first single-GPU segment after the family starts, and its length.
  std::optional<std::pair<std::size_t, std::size_t>> gpu_segment() const;
  std::optional<std::pair<std::size_t, std::size_t>> pair_segment() const;

  std::string id_;
};

// "gpu3" -> 3; anything else (including "gpu", "gpu3a" or "gpu" and seven digits) -> nullopt.
std::optional<int> parse_gpu_segment(std::string_view segment);

// "gpu0-gpu1" -> {0, 1}; anything else -> nullopt.
std::optional<std::pair<int, int>> parse_gpu_pair_segment(std::string_view segment);

}  // namespace gpubench
