#include "benchmarks/nccl/collective_report.hpp"

#include <cstdio>
#include <utility>

#include "benchmarks/nccl/bus_bandwidth.hpp"
#include "benchmarks/nccl/collective_check.cuh"
#include "benchmarks/nccl/collective_table.hpp"

namespace gpubench {

std::string param_number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

std::string describe_mismatches(Collective collective, const std::vector<RankCheck>& checks, std::size_t count) {
  const char* expected_what = collective_spec(collective).reduces ? "sum" : "value";
  std::string reason;
  for (const RankCheck& check : checks) {
    if (check.mismatches == 0) continue;
    reason += reason.empty() ? "wrong " + std::string(collective_id_name(collective)) + " result: " : "; ";
    char detail[256];
    std::snprintf(detail, sizeof detail,
                  "rank %d (GPU %d): %llu of %zu elements differ from the expected %s, the first at element %llu: "
                  "%.9g instead of %.9g (tolerance %.3g)",
                  check.rank, check.device, check.mismatches, count, expected_what, check.first_index,
                  static_cast<double>(check.actual), check.expected, check.tolerance);
    reason += detail;
  }
  return reason;
}

double busbw_gbps(const CollectiveMeasurement& m) {
  return bus_bandwidth_gbps(m.collective, static_cast<double>(m.bytes), m.mean_seconds, m.ranks);
}

CollectiveMeasurement measurement_of(const CollectiveSpec& spec, const CallShape& shape, Placement placement, int ranks,
                                     const NcclCombination& forced, std::optional<NcclCombination> used,
                                     std::string mode) {
  CollectiveMeasurement measurement;
  measurement.collective = spec.kind;
  measurement.bytes = shape.bytes();
  measurement.count = shape.block;
  measurement.placement = placement;
  measurement.ranks = ranks;
  measurement.forced = forced;
  measurement.used = std::move(used);
  measurement.mode = std::move(mode);
  return measurement;
}

std::map<std::string, std::string> collective_params(const CollectiveMeasurement& m) {
  const CollectiveSpec& spec = collective_spec(m.collective);
  std::map<std::string, std::string> params = {
      {"collective", std::string(collective_id_name(m.collective))},
      {"time_us", param_number(m.mean_seconds * 1e6)},
      {"algbw_GBps", param_number(algorithm_bandwidth_gbps(static_cast<double>(m.bytes), m.mean_seconds))},
      {"bytes", std::to_string(m.bytes)},
      {"count", std::to_string(m.count)},
      {"ranks", std::to_string(m.ranks)},
      {"placement", placement_name(m.placement)},
      {"calls_per_sample", std::to_string(m.calls_per_sample)},
      {"datatype", "float32"},
      {"op", spec.reduces ? "sum" : "none"},
      {"nccl_algo_forced", m.forced.algo},
      {"nccl_proto_forced", m.forced.proto},
      {"nccl_algo_used", m.used ? m.used->algo : "unknown"},
      {"nccl_proto_used", m.used ? m.used->proto : "unknown"},
      {"mode", m.mode},
  };
  if (spec.rooted) params["root"] = std::to_string(kernels::kCollectiveRoot);
  return params;
}

}  // namespace gpubench
