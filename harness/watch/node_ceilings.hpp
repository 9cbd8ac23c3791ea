#pragma once
// This node's measured ceilings, read from a gpubench results document of this node or from the baseline of its
// kind (the expected value of each figure), which `gpubench watch` holds a job's telemetry against. A ceiling the
// document lacks is absent, and the rules that need it say so.
#include <map>
#include <optional>
#include <string>

#include "harness/baseline/baseline_document.hpp"
#include "harness/results/results_document.hpp"

namespace gpubench {

struct Ceiling {
  double value = 0;
  std::string metric;  // the results document's id it came from, for the evidence
};

struct GpuCeilings {
  std::optional<Ceiling> hbm_gbps;                 // memory/read/1GiB, else memory/triad/1GiB
  std::map<std::string, Ceiling> gemm_tflops;      // by precision (fp32, tf32, bf16, ...): sustained 8192^3
  std::optional<Ceiling> h2d_pinned_gbps;          // pcie/h2d/pinned/1GiB
  std::optional<Ceiling> d2h_pinned_gbps;
  std::optional<Ceiling> h2d_pageable_gbps;
  std::optional<Ceiling> d2h_pageable_gbps;
  std::map<int, Ceiling> p2p_out_gbps;             // by peer: p2p/ce_unidir/1GiB from this GPU into the peer
};

// By CUDA index; a GPU the document measured nothing of is not in the map.
std::map<int, GpuCeilings> node_ceilings(const ResultsDocument& document);
// The same from a baseline of this node's kind: each figure's expected value (the median of its runs' medians).
std::map<int, GpuCeilings> node_ceilings(const Baseline& baseline);

}  // namespace gpubench
