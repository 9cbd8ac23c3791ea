#include "harness/baseline/measuring_method.hpp"

namespace gpubench {

MeasuringMethod measuring_method(const std::map<std::string, std::string>& params) {
  MeasuringMethod method;
  for (const auto& [key, value] : params) {
    const bool names_kernel = key == "launch" || key.rfind("algo_", 0) == 0;
    if (names_kernel && key != "algo_heuristic_rank" && key != "algo_workspace_bytes") method[key] = value;
  }
  return method;
}

MeasuringMethod common_method(const std::vector<MeasuringMethod>& runs) {
  if (runs.empty()) return {};
  MeasuringMethod common = runs.front();
  for (const MeasuringMethod& run : runs) {
    for (auto it = common.begin(); it != common.end();) {
      const auto same = run.find(it->first);
      it = same == run.end() || same->second != it->second ? common.erase(it) : std::next(it);
    }
  }
  return common;
}

std::string method_change(const MeasuringMethod& expected, const MeasuringMethod& measured) {
  std::string change;
  for (const auto& [key, value] : expected) {
    const auto now = measured.find(key);
    if (now == measured.end() || now->second == value) continue;
    change += (change.empty() ? "" : ", ") + key + " " + value + " -> " + now->second;
  }
  return change;
}

}  // namespace gpubench
