#include "harness/verdict/narrowed_link.hpp"

#include <algorithm>
#include <optional>
#include <vector>

#include "benchmarks/common/metric_id.hpp"

namespace gpubench {
namespace {

constexpr const char* kAllGpusSegment = "/all_gpus/";

std::optional<int> whole_number(const nlohmann::json& object, const char* key) {
  if (!object.is_object() || !object.contains(key) || !object.at(key).is_number_integer()) return std::nullopt;
  return object.at(key).get<int>();
}

struct LinkWidth {
  int current = 0;
  int widest = 0;
};

// `gpu`'s recorded link width and its maximum, when both were recorded.
std::optional<LinkWidth> recorded_width(const nlohmann::json& gpu) {
  if (!gpu.is_object() || !gpu.contains("pcie")) return std::nullopt;
  const std::optional<int> current = whole_number(gpu.at("pcie"), "current_width");
  const std::optional<int> widest = whole_number(gpu.at("pcie"), "max_width");
  if (!current || !widest) return std::nullopt;
  return LinkWidth{*current, *widest};
}

// "PCIe link x8 of x16" when `gpu`'s recorded link is narrower than its maximum; "" otherwise.
std::string narrowed_link_of(const nlohmann::json& gpu) {
  const std::optional<LinkWidth> width = recorded_width(gpu);
  if (!width || width->current <= 0 || width->current >= width->widest) return "";
  return "PCIe link x" + std::to_string(width->current) + " of x" + std::to_string(width->widest);
}

// The recorded GPUs a `pcie/...` figure crossed: its own GPU, or every GPU for an all_gpus figure; none for others.
std::vector<const nlohmann::json*> gpus_crossed(const nlohmann::json& environment, const std::string& metric_id) {
  const MetricId id(metric_id);
  std::vector<const nlohmann::json*> crossed;
  if (id.family() != "pcie" || !environment.is_object() || !environment.contains("gpus") ||
      !environment.at("gpus").is_array()) {
    return crossed;
  }
  const std::optional<int> one_gpu = id.gpu();
  const bool all_gpus = metric_id.find(kAllGpusSegment) != std::string::npos;
  for (const nlohmann::json& gpu : environment.at("gpus")) {
    const std::optional<int> index = whole_number(gpu, "index");
    if (index && (all_gpus || (one_gpu && *one_gpu == *index))) crossed.push_back(&gpu);
  }
  return crossed;
}

}  // namespace

std::string narrowed_link(const nlohmann::json& environment, const std::string& metric_id) {
  const bool all_gpus = metric_id.find(kAllGpusSegment) != std::string::npos;
  std::string links;
  for (const nlohmann::json* gpu : gpus_crossed(environment, metric_id)) {
    const std::string link = narrowed_link_of(*gpu);
    if (link.empty()) continue;
    links += (links.empty() ? "" : ", ") + (all_gpus ? "gpu" + std::to_string(*whole_number(*gpu, "index")) + " " : "") + link;
  }
  return links;
}

bool recorded_at_full_width(const nlohmann::json& environment, const std::string& metric_id) {
  const std::vector<const nlohmann::json*> crossed = gpus_crossed(environment, metric_id);
  if (crossed.empty()) return false;
  return std::all_of(crossed.begin(), crossed.end(), [](const nlohmann::json* gpu) {
    const std::optional<LinkWidth> width = recorded_width(*gpu);
    return width && width->current == width->widest;
  });
}

}  // namespace gpubench
