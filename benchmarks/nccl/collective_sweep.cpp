#include "benchmarks/nccl/collective_sweep.hpp"

#include <algorithm>
#include <cmath>

#include "benchmarks/nccl/collective_table.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kSmallestBytes = 8;
constexpr std::size_t kLargestBytes = std::size_t{4} << 30;
constexpr int kMaxCallsPerSample = 16;

bool chosen_by_nccl(const NcclCombination& forced) { return forced == NcclCombination{"auto", "auto"}; }

std::vector<std::size_t> every_power_of_two() {
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = kSmallestBytes; bytes <= kLargestBytes; bytes *= 2) sizes.push_back(bytes);
  return sizes;
}

std::vector<std::size_t> sizes_of(const CollectiveSpec& spec, Suite suite, const NcclCombination& forced) {
  if (spec.kind == Collective::AllReduce) return allreduce_sizes(suite);
  if (!chosen_by_nccl(forced) && (suite == Suite::Quick || spec.point_to_point)) return {};
  if (suite == Suite::Quick) return {4 * kKiB, kGiB};
  return every_power_of_two();
}

std::vector<Placement> placements_of(const CollectiveSpec& spec, Suite suite, const NcclCombination& forced) {
  if (spec.kind == Collective::AllReduce) return allreduce_placements(suite, forced);
  if (suite == Suite::Quick || !spec.has_in_place) return {Placement::OutOfPlace};
  return {Placement::OutOfPlace, Placement::InPlace};
}

}  // namespace

const char* placement_name(Placement placement) {
  return placement == Placement::InPlace ? "in_place" : "out_of_place";
}

std::vector<std::size_t> allreduce_sizes(Suite suite) {
  if (suite == Suite::Full) return every_power_of_two();
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = kSmallestBytes; bytes <= kLargestBytes; bytes *= 8) sizes.push_back(bytes);
  for (std::size_t always : {kGiB, kLargestBytes}) {
    if (std::find(sizes.begin(), sizes.end(), always) == sizes.end()) sizes.push_back(always);
  }
  std::sort(sizes.begin(), sizes.end());
  return sizes;
}

std::vector<Placement> allreduce_placements(Suite suite, const NcclCombination& forced) {
  if (suite == Suite::Quick && !chosen_by_nccl(forced)) return {Placement::OutOfPlace};
  return {Placement::OutOfPlace, Placement::InPlace};
}

std::vector<SweepPoint> sweep_points(Suite suite, const NcclCombination& forced) {
  std::vector<SweepPoint> points;
  for (const CollectiveSpec& spec : collective_table()) {
    for (std::size_t bytes : sizes_of(spec, suite, forced)) {
      for (Placement placement : placements_of(spec, suite, forced)) points.push_back({spec.kind, bytes, placement});
    }
  }
  return points;
}

std::string benchmark_name(const SweepPoint& point, const NcclCombination& forced) {
  return "nccl/" + std::string(collective_id_name(point.collective)) + "/" + forced.algo + "/" + forced.proto + "/" +
         size_name(point.bytes) + "/" + placement_name(point.placement);
}

const char* launch_name(Launch launch) { return launch == Launch::Graph ? "graph" : "plain"; }

std::vector<LaunchPoint> launch_points(Suite suite, const NcclCombination& forced) {
  if (suite == Suite::Quick || !chosen_by_nccl(forced)) return {};
  std::vector<LaunchPoint> points;
  for (const CollectiveSpec& spec : collective_table()) {
    for (std::size_t bytes : {std::size_t{8}, std::size_t{256}, 4 * kKiB, 64 * kKiB}) {
      for (Launch launch : {Launch::Plain, Launch::Graph}) points.push_back({spec.kind, bytes, launch});
    }
  }
  return points;
}

std::string launch_benchmark_name(const LaunchPoint& point) {
  return "nccl/" + std::string(collective_id_name(point.collective)) + "/" + launch_name(point.launch) + "/" +
         size_name(point.bytes);
}

int calls_per_sample(std::size_t bytes, int ranks, Placement placement) {
  // Up to 1 MiB a call lasts about NCCL's latency (10-20 us over NVLink); from 64 MiB on, one call is long enough.
  int calls = 1;
  if (bytes <= kMiB) {
    calls = kMaxCallsPerSample;
  } else if (bytes <= 8 * kMiB) {
    calls = 4;
  } else if (bytes < 64 * kMiB) {
    calls = 2;
  }
  if (placement == Placement::InPlace && ranks > 1) {
    calls = std::min(calls, std::max(1, static_cast<int>(30.0 / std::log10(static_cast<double>(ranks)))));
  }
  return calls;
}

}  // namespace gpubench
