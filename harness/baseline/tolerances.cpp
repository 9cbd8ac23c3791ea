#include "harness/baseline/tolerances.hpp"

namespace gpubench {
namespace {

bool starts_with(const std::string& text, const char* prefix) { return text.rfind(prefix, 0) == 0; }
bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

double default_tolerance(const std::string& metric_id, const std::string& unit) {
  if (starts_with(metric_id, "memory/")) return 0.03;  // HBM bandwidth: within 1 % run to run on a healthy GPU
  if (starts_with(metric_id, "gemm/")) return 0.05;    // clocks move with power and temperature
  // Small transfers and anything in microseconds are dominated by latency and OS noise.
  if (unit == "us" || unit == "ms" || contains(metric_id, "KiB/")) return 0.15;
  return 0.05;  // PCIe, P2P and NCCL bandwidth among them
}

}  // namespace gpubench
