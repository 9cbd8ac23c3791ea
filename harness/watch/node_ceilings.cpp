#include "harness/watch/node_ceilings.hpp"

#include <sstream>
#include <vector>

namespace gpubench {
namespace {

std::vector<std::string> id_parts(const std::string& id) {
  std::vector<std::string> parts;
  std::istringstream in(id);
  for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
  return parts;
}

// "gpu3" -> 3; "gpu0-gpu1" -> 0 and peer 1; anything else -> nothing.
std::optional<int> gpu_number(const std::string& text) {
  if (text.size() < 4 || text.compare(0, 3, "gpu") != 0) return std::nullopt;
  for (std::size_t i = 3; i < text.size(); ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
  }
  return std::stoi(text.substr(3));
}

// A figure of a results document (its median) or of a baseline (its expected value), by its id.
struct Figure {
  std::string id;
  double value = 0;
};

void record(std::optional<Ceiling>& slot, const Figure& metric) { slot = Ceiling{metric.value, metric.id}; }

void add_metric(const Figure& metric, std::map<int, GpuCeilings>& ceilings) {
  const std::vector<std::string> p = id_parts(metric.id);
  if (p.size() == 5 && p[0] == "memory" && p[2] == "1GiB" && p[4] == "bandwidth" && gpu_number(p[3])) {
    GpuCeilings& gpu = ceilings[*gpu_number(p[3])];
    if (p[1] == "read") record(gpu.hbm_gbps, metric);  // read wins over triad, whichever comes first
    if (p[1] == "triad" && !gpu.hbm_gbps) record(gpu.hbm_gbps, metric);
  } else if (p.size() == 5 && p[0] == "gemm" && p[2] == "8192x8192x8192" && p[4] == "tflops" && gpu_number(p[3])) {
    ceilings[*gpu_number(p[3])].gemm_tflops[p[1]] = Ceiling{metric.value, metric.id};
  } else if (p.size() == 6 && p[0] == "pcie" && p[3] == "1GiB" && p[5] == "bandwidth" && gpu_number(p[4])) {
    GpuCeilings& gpu = ceilings[*gpu_number(p[4])];
    if (p[1] == "h2d" && p[2] == "pinned") record(gpu.h2d_pinned_gbps, metric);
    if (p[1] == "d2h" && p[2] == "pinned") record(gpu.d2h_pinned_gbps, metric);
    if (p[1] == "h2d" && p[2] == "pageable") record(gpu.h2d_pageable_gbps, metric);
    if (p[1] == "d2h" && p[2] == "pageable") record(gpu.d2h_pageable_gbps, metric);
  } else if (p.size() == 5 && p[0] == "p2p" && p[1] == "ce_unidir" && p[2] == "1GiB" && p[4] == "bandwidth") {
    const std::size_t dash = p[3].find('-');
    if (dash == std::string::npos) return;
    const std::optional<int> from = gpu_number(p[3].substr(0, dash)), to = gpu_number(p[3].substr(dash + 1));
    if (from && to) ceilings[*from].p2p_out_gbps[*to] = Ceiling{metric.value, metric.id};
  }
}

}  // namespace

std::map<int, GpuCeilings> node_ceilings(const ResultsDocument& document) {
  std::map<int, GpuCeilings> ceilings;
  for (const Metric& metric : document.metrics) add_metric({metric.id, metric.value}, ceilings);
  return ceilings;
}

std::map<int, GpuCeilings> node_ceilings(const Baseline& baseline) {
  std::map<int, GpuCeilings> ceilings;
  for (const auto& [id, metric] : baseline.metrics) add_metric({id, metric.expected}, ceilings);
  return ceilings;
}

}  // namespace gpubench
