#pragma once
// What a node of one kind should have (`gpubench doctor --expect FILE`, gpubench.node_profile/1, described in
// docs/node-profile.md). Every field is optional: one that is present is checked on every GPU (or on the node),
// one that is left out is not checked.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace gpubench {

struct NodeProfile {
  std::string path;  // where it was read from, named in the findings
  std::optional<unsigned> gpu_count;           // GPUs CUDA sees, selected with --devices or not
  std::optional<std::string> gpu_model;        // CUDA's name: "NVIDIA H200"
  std::optional<std::string> driver_version;   // "580.159.04"
  std::optional<std::string> vbios_version;    // "96.00.AF.00.01"
  std::optional<unsigned> memory_mib;          // per GPU, as nvidia-smi shows memory.total; within 2 %
  std::optional<unsigned> nvlinks_per_gpu;     // active NVLinks
  std::optional<double> nvlink_speed_gb_per_s;  // each active link, one direction, as `nvidia-smi nvlink -s` shows; within 1 %
  std::optional<unsigned> pcie_generation;     // the link as trained under load
  std::optional<unsigned> pcie_width;
  std::optional<bool> ecc;                     // ECC on (true) or off (false)
};

inline constexpr const char* kNodeProfileSchema = "gpubench.node_profile/1";

// Throws InputError naming the file and the field: a file that cannot be read or is not JSON, a field doctor
// does not know (a typo would otherwise leave that field unchecked), a value of the wrong type or out of range.
NodeProfile load_node_profile(const std::string& path);
NodeProfile parse_node_profile(const nlohmann::json& document, const std::string& path);

}  // namespace gpubench
