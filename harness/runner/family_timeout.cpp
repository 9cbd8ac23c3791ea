#include "harness/runner/family_timeout.hpp"

#include "benchmarks/common/metric_id.hpp"

namespace gpubench {

std::chrono::seconds family_timeout(const FamilySpec& family, const std::vector<std::string>& benchmarks, std::size_t gpus) {
  if (gpus <= 2) return family.timeout;
  bool per_gpu = false;
  bool per_pair = false;
  for (const std::string& name : benchmarks) {
    const MetricId id(name, "figure");  // the pair segment is the one before the figure
    per_pair = per_pair || id.gpu_pair().has_value();
    per_gpu = per_gpu || id.gpu().has_value();
  }
  const auto n = static_cast<std::chrono::seconds::rep>(gpus);
  if (per_pair) return family.timeout * (n * (n - 1)) / 2;
  if (per_gpu) return family.timeout * n / 2;
  return family.timeout;
}

}  // namespace gpubench
